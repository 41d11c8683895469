import { SeriesChart, type ChartDatum } from '@limelight/widgets/usage-chart';

/** Spec: the home page graph's values, in order. */
export const HOME_GROWTH_VALUES = [0, 10, 10, 15, 16, 20, 22, 28, 34, 50] as const;

// The spec gives the values only; they are shown as ten months of growth.
const data: ChartDatum[] = HOME_GROWTH_VALUES.map((value, i) => ({ label: `M${i + 1}`, value }));

/** The hosting showcase's growth chart: the library's chart, so it themes and reads like the account charts. */
export function GrowthChart() {
  return <SeriesChart title="Growth" valueLabel="growth" categoryLabel="Month" data={data} kind="line" />;
}
