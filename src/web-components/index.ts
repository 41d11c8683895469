/**
 * `import '@limelight/widgets/web-components'` registers every element (a side effect, listed
 * in package.json `sideEffects`). The classes are exported for pages that want to register
 * them under other names (`defineElement(LimeServiceSearchElement, 'my-search')`).
 */
import { LimeAuthDialogElement } from './AuthDialogElement';
import { LimeCodeViewerElement } from './CodeViewerElement';
import { LimePricingCalculatorElement } from './PricingCalculatorElement';
import { LimeApiKeysElement } from './account/ApiKeysElement';
import { LimeProfileFormElement } from './account/ProfileFormElement';
import { LimeChangePasswordElement } from './account/ChangePasswordElement';
import { LimeMfaElement } from './account/MfaElement';
import { LimeCreditsElement } from './account/CreditsElement';
import { LimeSubscriptionElement } from './account/SubscriptionElement';
import { LimeTransactionsElement } from './account/TransactionsElement';
import { LimeUsageChartElement } from './account/UsageChartElement';
import { LimeRegistryCredentialsElement } from './account/RegistryCredentialsElement';
import { LimeSupportFormElement } from './account/SupportFormElement';
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
  LimeApiKeysElement,
  LimeProfileFormElement,
  LimeChangePasswordElement,
  LimeMfaElement,
  LimeCreditsElement,
  LimeSubscriptionElement,
  LimeTransactionsElement,
  LimeUsageChartElement,
  LimeRegistryCredentialsElement,
  LimeSupportFormElement,
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
export {
  LimeApiKeysElement,
  LimeProfileFormElement,
  LimeChangePasswordElement,
  LimeMfaElement,
  LimeCreditsElement,
  LimeSubscriptionElement,
  LimeTransactionsElement,
  LimeUsageChartElement,
  LimeRegistryCredentialsElement,
  LimeSupportFormElement,
};
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
  apiKeysDefinition,
  profileFormDefinition,
  changePasswordDefinition,
  mfaDefinition,
  creditsDefinition,
  subscriptionDefinition,
  transactionsDefinition,
  usageChartDefinition,
  registryCredentialsDefinition,
  supportFormDefinition,
  accountPanelDefinitions,
} from './definitions';
export type { WidgetDefinition, AttributeDefinition, EventDefinition, MethodDefinition } from './types';
