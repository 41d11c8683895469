export { UsageChart } from './UsageChart';
export type { UsageChartProps } from './UsageChart';
export { useUsageChart } from './useUsageChart';
export type { UsageSeries } from './useUsageChart';
export { SeriesChart } from './SeriesChart';
export type { SeriesChartProps } from './SeriesChart';
export { chartGeometry, compactNumber, CHART_BOX } from './chartModel';
export type { ChartDatum, ChartKind, ChartGeometry, ChartPoint } from './chartModel';
export { creditsSpentByMonth, balanceByMonth, usageRows, monthOf } from './usageData';
