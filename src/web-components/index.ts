/**
 * `import '@limelight/widgets/web-components'` registers every element (a side effect, listed
 * in package.json `sideEffects`). The classes are exported for pages that want to register
 * them under other names (`defineElement(LimeServiceSearchElement, 'my-search')`).
 */
import { LimeAuthDialogElement } from './AuthDialogElement';
import { LimeCodeViewerElement } from './CodeViewerElement';
import { LimePricingCalculatorElement } from './PricingCalculatorElement';
import { defineElement } from './define';
import { LimeServiceRunnerElement } from './ServiceRunnerElement';
import { LimeServiceSearchElement } from './ServiceSearchElement';
import { registerStyles } from './styles';
import { widgetCss } from './widget-styles';

/** Every element class, in registration order. */
export const widgetElements = [
  LimeServiceSearchElement,
  LimeAuthDialogElement,
  LimeCodeViewerElement,
  LimePricingCalculatorElement,
  LimeServiceRunnerElement,
] as const;

/** Registers every element (guarded; calling it twice is harmless). */
export function defineAll(): void {
  for (const element of widgetElements) defineElement(element);
}

registerStyles(widgetCss);
defineAll();

export { defineElement } from './define';
export type { WidgetElementClass } from './define';
export { LimeServiceSearchElement, LimeAuthDialogElement, LimeCodeViewerElement, LimePricingCalculatorElement, LimeServiceRunnerElement };
export { defineWidget } from './defineWidget';
export type { WidgetContext, WidgetRenderProps } from './defineWidget';
export { registerStyles, adoptStyles } from './styles';
export {
  widgetDefinitions,
  serviceSearchDefinition,
  authDialogDefinition,
  codeViewerDefinition,
  pricingCalculatorDefinition,
  serviceRunnerDefinition,
} from './definitions';
export type { WidgetDefinition, AttributeDefinition, EventDefinition, MethodDefinition } from './types';
