import { PricingCalculator } from '../components/PricingCalculator';
import { defineWidget, type WidgetRenderProps } from './defineWidget';
import { pricingCalculatorDefinition } from './definitions/pricingCalculator';

const headingLevels = new Set([0, 2, 3, 4, 5, 6]);

function PricingCalculatorWidget({ attributes: a, context }: WidgetRenderProps<typeof pricingCalculatorDefinition>) {
  const defaultValue = {
    ...(a.gpuVramGb !== undefined && { gpuVramGb: a.gpuVramGb }),
    ...(a.requestsPerHour !== undefined && { requestsPerHour: String(a.requestsPerHour) }),
    ...(a.executionMs !== undefined && { executionMs: String(a.executionMs) }),
  };
  return (
    <PricingCalculator
      // The start values are attributes; changing one starts over from the new values.
      key={`${a.gpuVramGb}|${a.requestsPerHour}|${a.executionMs}`}
      defaultValue={defaultValue}
      live={a.live}
      showTable={a.showTable}
      headingLevel={headingLevels.has(a.headingLevel ?? 3) ? ((a.headingLevel ?? 3) as 0 | 2 | 3 | 4 | 5 | 6) : 3}
      onChange={(estimate) => context.emit('estimate', estimate)}
    />
  );
}

/** The `<lime-pricing-calculator>` element: `PricingCalculator` as a custom element (attributes and events in docs/embeds.md). */
export const LimePricingCalculatorElement = /* @__PURE__ */ defineWidget(pricingCalculatorDefinition, PricingCalculatorWidget);
