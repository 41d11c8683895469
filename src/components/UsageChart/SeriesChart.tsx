import { useId, useMemo } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import * as panel from '../AccountPanel/AccountPanel.css';
import { CHART_BOX, chartGeometry, type ChartDatum, type ChartKind, type ChartPoint } from './chartModel';
import * as styles from './SeriesChart.css';
import { useRovingPoint } from './useRovingPoint';

/** Props of `SeriesChart`. */
export interface SeriesChartProps {
  /** The chart's name (figure caption, the SVG's accessible name, the table's caption). */
  title: string;
  /** Name of the values, e.g. 'API calls' (tooltip, table header). */
  valueLabel: string;
  /** Name of the categories, e.g. 'Month' (table header). */
  categoryLabel: string;
  data: readonly ChartDatum[];
  /**
   * Bars (amounts per period) or a line (a quantity over time).
   * @default 'bar'
   */
  kind?: ChartKind;
  /**
   * Formats a value for tooltips and the table.
   * @default the locale's number format
   */
  formatValue?: (value: number) => string;
  /**
   * Shows the caption above the chart (turn off when a heading already names it).
   * @default true
   */
  showCaption?: boolean;
  /** Extra class on the figure. */
  className?: string;
}

const defaultFormat = (value: number) => value.toLocaleString();

/**
 * A one-series bar or line chart drawn as SVG from d3 scales, themed by `--lime-*`. The points
 * are reachable by keyboard (one tab stop, arrows between points) and by pointer, each showing
 * a tooltip with its value; the same data is always available as a table under "Show as table".
 */
export function SeriesChart({
  title,
  valueLabel,
  categoryLabel,
  data,
  kind = 'bar',
  formatValue = defaultFormat,
  showCaption = true,
  className,
}: SeriesChartProps) {
  const strings = useStrings().account;
  const geometry = useMemo(() => chartGeometry(data, kind), [data, kind]);
  const roving = useRovingPoint(data.length);
  const titleId = useId();
  const { width, height, left, right, bottom } = CHART_BOX;
  const describe = (p: ChartPoint) => `${p.text}: ${formatValue(p.value)} ${valueLabel}`;
  const activePoint = roving.active === null ? null : geometry.points[roving.active];
  return (
    <figure
      className={[styles.figure, className].filter(Boolean).join(' ')}
      aria-labelledby={titleId}
      data-lime="series-chart"
      data-kind={kind}
    >
      <figcaption id={titleId} className={showCaption ? styles.caption : panel.visuallyHidden}>
        {title}
      </figcaption>
      <svg className={styles.svg} viewBox={`0 0 ${width} ${height}`} role="group" aria-labelledby={titleId}>
        <g aria-hidden="true">
          {geometry.ticks.map((t) => (
            <g key={t.value}>
              <line className={styles.grid} x1={left} x2={width - right} y1={t.y} y2={t.y} />
              <text className={styles.axisText} x={left - 8} y={t.y} textAnchor="end" dominantBaseline="middle">
                {t.text}
              </text>
            </g>
          ))}
          {geometry.xTicks.map((t) => (
            <text key={t.text} className={styles.axisText} x={t.x} y={height - bottom + 20} textAnchor="middle">
              {t.text}
            </text>
          ))}
          {kind === 'line' && <path className={styles.area} d={geometry.areaPath} />}
          {kind === 'line' && <path className={styles.line} d={geometry.linePath} />}
        </g>
        {geometry.points.map((p, i) => (
          <g key={p.label} className={styles.point} role="img" aria-label={describe(p)} {...roving.pointProps(i)}>
            {kind === 'bar' ? (
              <>
                <rect
                  className={styles.bar}
                  x={p.barX}
                  y={Math.min(p.y, geometry.baseline)}
                  width={p.barWidth}
                  height={Math.max(p.barHeight, 1)}
                  rx={3}
                />
                <rect
                  className={styles.focusRing}
                  x={p.barX - 3}
                  y={Math.min(p.y, geometry.baseline) - 3}
                  width={p.barWidth + 6}
                  height={Math.max(p.barHeight, 1) + 6}
                  rx={5}
                />
              </>
            ) : (
              <>
                <circle className={styles.hit} cx={p.x} cy={p.y} r={14} />
                <circle className={styles.dot} cx={p.x} cy={p.y} r={5} />
                <circle className={styles.focusRing} cx={p.x} cy={p.y} r={10} />
              </>
            )}
          </g>
        ))}
        {geometry.single && geometry.points[0] && roving.active === null && (
          <text
            className={styles.valueText}
            x={geometry.points[0].x}
            y={Math.max(Math.min(geometry.points[0].y, geometry.baseline) - 12, 12)}
            textAnchor="middle"
            aria-hidden="true"
            data-testid="chart-value"
          >
            {formatValue(geometry.points[0].value)}
          </text>
        )}
        {activePoint && <Tooltip point={activePoint} text={`${activePoint.text}: ${formatValue(activePoint.value)}`} />}
      </svg>
      <details className={styles.details}>
        <summary className={styles.summary}>{strings.showTable}</summary>
        <table className={panel.table}>
          <caption className={panel.visuallyHidden}>{title}</caption>
          <thead>
            <tr>
              <th className={panel.th} scope="col">
                {categoryLabel}
              </th>
              <th className={[panel.th, panel.numeric].join(' ')} scope="col">
                {valueLabel}
              </th>
            </tr>
          </thead>
          <tbody>
            {geometry.points.map((d) => (
              <tr key={d.label}>
                <th className={panel.td} scope="row">
                  {d.text}
                </th>
                <td className={[panel.td, panel.numeric].join(' ')}>{formatValue(d.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/** The active point's value, above it (kept inside the viewBox). Hidden from assistive tech: the point's own label says the same. */
function Tooltip({ point, text }: { point: ChartPoint; text: string }) {
  const boxWidth = Math.max(48, text.length * 7.5 + 16);
  const x = Math.min(Math.max(point.x - boxWidth / 2, 0), CHART_BOX.width - boxWidth);
  const y = Math.max(point.y - 40, 0);
  return (
    <g aria-hidden="true" pointerEvents="none" data-testid="chart-tooltip">
      <rect className={styles.tooltipBox} x={x} y={y} width={boxWidth} height={28} rx={6} />
      <text className={styles.tooltipText} x={x + boxWidth / 2} y={y + 14} textAnchor="middle" dominantBaseline="middle">
        {text}
      </text>
    </g>
  );
}
