import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';

/** How a series is drawn: bars or a line. */
export type ChartKind = 'bar' | 'line';

/** One bar or point of a chart: its category label (x axis) and value. */
export interface ChartDatum {
  /** Category label (x axis), e.g. `2026-03`. */
  label: string;
  value: number;
}

/** Drawing area of the SVG's viewBox; the SVG scales to its container's width. */
export const CHART_BOX = { width: 640, height: 260, top: 16, right: 16, bottom: 36, left: 56 } as const;

export interface ChartPoint extends ChartDatum {
  /** Centre of the bar or the line's point, in viewBox units. */
  x: number;
  y: number;
  /** Bar geometry (bar charts). */
  barX: number;
  barWidth: number;
  barHeight: number;
}

export interface ChartGeometry {
  points: ChartPoint[];
  /** Y axis ticks: value and y position. */
  ticks: Array<{ value: number; y: number }>;
  /** Line and area paths (line charts), '' otherwise. */
  linePath: string;
  areaPath: string;
  /** Y of the zero line. */
  baseline: number;
  /** Every n-th x label is drawn so labels never overlap (all stay in the data table). */
  labelEvery: number;
}

/**
 * Positions of a one-series chart in the viewBox: d3-scale for the axes (a "nice" y domain from
 * 0, about five ticks), d3-shape for the line. Pure, so the geometry is testable without a DOM;
 * rendering it as SVG elements with attributes (no inline styles) keeps it CSP-safe.
 */
export function chartGeometry(data: readonly ChartDatum[], kind: ChartKind): ChartGeometry {
  const { width, height, top, right, bottom, left } = CHART_BOX;
  const max = Math.max(0, ...data.map((d) => d.value));
  const min = Math.min(0, ...data.map((d) => d.value));
  const y = scaleLinear()
    .domain([min, max === min ? min + 1 : max])
    .range([height - bottom, top])
    .nice(5);
  const labels = data.map((d) => d.label);
  const baseline = y(0);
  let points: ChartPoint[];
  if (kind === 'bar') {
    const x = scaleBand<string>()
      .domain(labels)
      .range([left, width - right])
      .paddingInner(0.25)
      .paddingOuter(0.15);
    points = data.map((d) => {
      const top = y(Math.max(d.value, 0));
      const bottom = y(Math.min(d.value, 0));
      return {
        ...d,
        x: (x(d.label) ?? left) + x.bandwidth() / 2,
        y: y(d.value),
        barX: x(d.label) ?? left,
        barWidth: x.bandwidth(),
        barHeight: bottom - top,
      };
    });
  } else {
    const x = scalePoint<string>()
      .domain(labels)
      .range([left, width - right])
      .padding(0.3);
    points = data.map((d) => ({ ...d, x: x(d.label) ?? left, y: y(d.value), barX: 0, barWidth: 0, barHeight: 0 }));
  }
  const linePath =
    kind === 'line'
      ? (line<ChartPoint>(
          (p) => p.x,
          (p) => p.y,
        )(points) ?? '')
      : '';
  const areaPath =
    kind === 'line'
      ? (area<ChartPoint>(
          (p) => p.x,
          baseline,
          (p) => p.y,
        )(points) ?? '')
      : '';
  const plotWidth = width - left - right;
  // Roughly 56 viewBox units per label keeps `2026-03` from touching its neighbours.
  const labelEvery = Math.max(1, Math.ceil((data.length * 56) / plotWidth));
  return { points, ticks: y.ticks(5).map((value) => ({ value, y: y(value) })), linePath, areaPath, baseline, labelEvery };
}

/** Short tick text: 1.2k, 3M. */
export function compactNumber(value: number): string {
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
}
