import { UsageChart } from '../../components/UsageChart';
import type { UsageSeries } from '../../components/UsageChart/useUsageChart';
import { usageChartDefinition } from '../definitions/accountPanels';
import { definePanelElement } from './definePanelElement';

const known = new Set<string>(['calls', 'credits', 'balance']);

/** The `series` attribute: known names, space-separated, in order; the default when none. */
function seriesOf(value: unknown): UsageSeries[] | undefined {
  const names = typeof value === 'string' ? value.split(/\s+/).filter((n) => known.has(n)) : [];
  return names.length ? (names as UsageSeries[]) : undefined;
}

/** The `<lime-usage-chart>` element: `UsageChart` as a custom element (attributes and events in docs/embeds.md). */
export const LimeUsageChartElement = /* @__PURE__ */ definePanelElement(usageChartDefinition, UsageChart, (attributes) => ({
  series: seriesOf(attributes.series),
}));
