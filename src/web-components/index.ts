/**
 * `import '@limelight/widgets/web-components'` registers every element (a side effect, listed
 * in package.json `sideEffects`). The classes are exported for pages that want to register
 * them under other names (`defineElement(LimeServiceSearchElement, 'my-search')`).
 */
import { LimeAuthDialogElement } from './AuthDialogElement';
import { LimeCodeViewerElement } from './CodeViewerElement';
import { LimePricingCalculatorElement } from './PricingCalculatorElement';
import { defineElement } from './define';
import { widgetElements } from './elements';
import { LimeServiceRunnerElement } from './ServiceRunnerElement';
import { LimeServiceSearchElement } from './ServiceSearchElement';
import { registerStyles } from './styles';
import { widgetCss } from './widget-styles';

/** Registers every element (guarded; calling it twice is harmless). */
export function defineAll(): void {
  for (const element of widgetElements) defineElement(element);
}

registerStyles(widgetCss);
defineAll();

export { defineElement } from './define';
export type { WidgetElementClass } from './define';
export { LimeServiceSearchElement, LimeAuthDialogElement, LimeCodeViewerElement, LimePricingCalculatorElement, LimeServiceRunnerElement };
// The account panels' classes, each from its module; `accountPanelElements` lists them.
export { LimeApiKeysElement } from './account/ApiKeysElement';
export { LimeProfileFormElement } from './account/ProfileFormElement';
export { LimeChangePasswordElement } from './account/ChangePasswordElement';
export { LimeMfaElement } from './account/MfaElement';
export { LimeCreditsElement } from './account/CreditsElement';
export { LimeSubscriptionElement } from './account/SubscriptionElement';
export { LimeTransactionsElement } from './account/TransactionsElement';
export { LimeUsageChartElement } from './account/UsageChartElement';
export { LimeRegistryCredentialsElement } from './account/RegistryCredentialsElement';
export { LimeSupportFormElement } from './account/SupportFormElement';
export type { WidgetDefinition } from './types';
