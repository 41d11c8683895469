import { LimeAuthDialogElement } from './AuthDialogElement';
import { LimeCodeViewerElement } from './CodeViewerElement';
import { LimePricingCalculatorElement } from './PricingCalculatorElement';
import { accountPanelElements } from './account/elements';
import { LimeServiceRunnerElement } from './ServiceRunnerElement';
import { LimeServiceSearchElement } from './ServiceSearchElement';

// Internal to the web-components entry: the build scripts and tests read the list here; pages
// register elements through `defineAll()` or `defineElement()` (docs/api-surface.md).

/** Every element class, in registration order (that of `widgetDefinitions`). */
export const widgetElements = [
  LimeServiceSearchElement,
  LimeAuthDialogElement,
  LimeCodeViewerElement,
  LimePricingCalculatorElement,
  LimeServiceRunnerElement,
  ...accountPanelElements,
] as const;
