import { scaleBand, scaleLinear, scalePoint } from 'd3-scale';
import { area, line } from 'd3-shape';
import { formatMonth } from '../AccountPanel/format';

/** How a series is drawn: bars or a line. */
export type ChartKind = 'bar' | 'line';

/** One bar or point of a chart: its category label (x axis) and value. */
export interface ChartDatum {
  /** Category label (x axis), e.g. `2026-03`: month keys make a time axis. */
  label: string;
  value: number;
}

/** Drawing area of the SVG's viewBox; the SVG scales to its container's width. */
export const CHART_BOX = { width: 640, height: 260, top: 16, right: 16, bottom: 36, left: 56 } as const;

export interface ChartPoint extends ChartDatum {
  /** The label as people read it: a month key in the locale's month and year ('Nov 2026'). */
  text: string;
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
  /** Y axis ticks: value, y position and the text drawn (as precise as the step between ticks). */
  ticks: Array<{ value: number; y: number; text: string }>;
  /**
   * A single point (a new account's first month): its value is written beside it, as a lone bar
   * or dot on an axis says little by itself (issue 39, item 4).
   */
  single: boolean;
  /** Line and area paths (line charts), '' otherwise. */
  linePath: string;
  areaPath: string;
  /** Y of the zero line. */
  baseline: number;
  /** Every n-th x label is drawn so labels never overlap (all stay in the data table). */
  labelEvery: number;
  /** The x axis labels to draw: at every n-th month on a time axis, or every `labelEvery`-th point. */
  xTicks: Array<{ x: number; text: string }>;
  /** Whether x is a time axis (every label a month key): months are spaced by time, gaps show. */
  timeAxis: boolean;
}

const MONTH_KEY = /^(\d{4})-(\d{2})$/;
/** Months between x axis labels, the first that keeps labels apart. */
const MONTH_TICK_STEPS = [1, 2, 3, 6, 12, 24, 60];
/** viewBox units a label such as 'Nov 2026' needs, with a gap. */
const LABEL_WIDTH = 64;

/** Months since year 0 of a 'YYYY-MM' key. */
const monthIndex = (key: string) => {
  const [, y, m] = MONTH_KEY.exec(key)!;
  return Number(y) * 12 + Number(m) - 1;
};
const monthStart = (index: number) => new Date(Date.UTC(Math.floor(index / 12), index % 12, 1));

/**
 * A time axis over months: each month is a slot as wide as its days, so 2025-10 and 2026-05 lie
 * seven slots apart while 2026-10 and 2026-11 are neighbours. Points sit mid-slot.
 */
function monthAxis(labels: readonly string[], plotLeft: number, plotRight: number) {
  const indexes = labels.map(monthIndex);
  const first = Math.min(...indexes);
  const last = Math.max(...indexes);
  // A linear scale over timestamps is a time scale without its tick formatting (scaleUtc would
  // bring d3-time-format, 2.7 kB over lime-usage-chart's budget; the ticks are placed below).
  const x = scaleLinear()
    .domain([monthStart(first).getTime(), monthStart(last + 1).getTime()])
    .range([plotLeft, plotRight]);
  const at = (index: number) => x(monthStart(index).getTime());
  const slot = (index: number) => ({ start: at(index), width: at(index + 1) - at(index) });
  const months = last - first + 1;
  const step = MONTH_TICK_STEPS.find((n) => (months / n) * LABEL_WIDTH <= plotRight - plotLeft) ?? MONTH_TICK_STEPS.at(-1)!;
  const ticks: Array<{ x: number; text: string }> = [];
  for (let index = first; index <= last; index++) {
    if ((index - first) % step !== 0) continue;
    const { start, width } = slot(index);
    const key = monthStart(index).toISOString().slice(0, 7);
    ticks.push({ x: start + width / 2, text: formatMonth(key) });
  }
  return { slot: (label: string) => slot(monthIndex(label)), ticks };
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
  const timeAxis = data.length > 0 && labels.every((label) => MONTH_KEY.test(label));
  const text = (label: string) => (timeAxis ? formatMonth(label) : label);
  let points: ChartPoint[];
  let xTicks: ChartGeometry['xTicks'] | null = null;
  if (timeAxis) {
    const axis = monthAxis(labels, left + 8, width - right - 8);
    xTicks = axis.ticks;
    points = data.map((d) => {
      const { start, width: slotWidth } = axis.slot(d.label);
      const barWidth = kind === 'bar' ? Math.min(slotWidth * 0.75, 40) : 0;
      const top = y(Math.max(d.value, 0));
      const bottom = y(Math.min(d.value, 0));
      const x = start + slotWidth / 2;
      return {
        ...d,
        text: text(d.label),
        x,
        y: y(d.value),
        barX: kind === 'bar' ? x - barWidth / 2 : 0,
        barWidth,
        barHeight: kind === 'bar' ? bottom - top : 0,
      };
    });
  } else if (kind === 'bar') {
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
        text: d.label,
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
    points = data.map((d) => ({ ...d, text: d.label, x: x(d.label) ?? left, y: y(d.value), barX: 0, barWidth: 0, barHeight: 0 }));
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
  const tickValues = y.ticks(5);
  const step = tickValues.length > 1 ? Math.abs(tickValues[1]! - tickValues[0]!) : 1;
  return {
    points,
    ticks: tickValues.map((value) => ({ value, y: y(value), text: compactNumber(value, step) })),
    single: points.length === 1,
    linePath,
    areaPath,
    baseline,
    labelEvery,
    xTicks: xTicks ?? points.filter((_, i) => i % labelEvery === 0).map((p) => ({ x: p.x, text: p.text })),
    timeAxis,
  };
}

/**
 * Short tick text: 1.2k, 3M; with as many decimals as `step` (the distance between ticks) needs,
 * so ticks 0.005 apart read 0.005, 0.01, 0.015 rather than 0, 0, 0.
 */
export function compactNumber(value: number, step = 1): string {
  const decimals = step > 0 && step < 1 ? Math.min(Math.ceil(-Math.log10(step) - 1e-9), 6) : 1;
  return new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: Math.max(decimals, 1) }).format(value);
}
