import { UsageChart, type UsageSeries } from '../../components/UsageChart';
import { defineWidget, type WidgetRenderProps } from '../defineWidget';
import { usageChartDefinition } from '../definitions/accountPanels';
import { headingLevelOf } from './panelProps';

const known = new Set<string>(['calls', 'credits', 'balance']);

/** The `series` attribute: known names, space-separated, in order; the default when none. */
function seriesOf(value: unknown): UsageSeries[] | undefined {
  const names = typeof value === 'string' ? value.split(/\s+/).filter((n) => known.has(n)) : [];
  return names.length ? (names as UsageSeries[]) : undefined;
}

function Widget({ attributes: a }: WidgetRenderProps<typeof usageChartDefinition>) {
  const attributes = a as Record<string, unknown>;
  return <UsageChart headingLevel={headingLevelOf(attributes.headingLevel)} series={seriesOf(attributes.series)} />;
}

export const LimeUsageChartElement = /* @__PURE__ */ defineWidget(usageChartDefinition, Widget);
