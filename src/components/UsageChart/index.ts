export { UsageChart } from './UsageChart';
export type { UsageChartProps } from './UsageChart';
export { SeriesChart } from './SeriesChart';
export type { SeriesChartProps } from './SeriesChart';
export type { ChartDatum, ChartKind } from './chartModel';
export { formatMonth } from '../AccountPanel/format';
