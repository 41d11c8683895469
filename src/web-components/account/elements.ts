// The account panels' element classes (docs/embeds.md), in the order of
// `accountPanelDefinitions`: index.ts registers them with the other widgets.
import { LimeApiKeysElement } from './ApiKeysElement';
import { LimeChangePasswordElement } from './ChangePasswordElement';
import { LimeCreditsElement } from './CreditsElement';
import { LimeMfaElement } from './MfaElement';
import { LimeProfileFormElement } from './ProfileFormElement';
import { LimeRegistryCredentialsElement } from './RegistryCredentialsElement';
import { LimeSubscriptionElement } from './SubscriptionElement';
import { LimeSupportFormElement } from './SupportFormElement';
import { LimeTransactionsElement } from './TransactionsElement';
import { LimeUsageChartElement } from './UsageChartElement';

export const accountPanelElements = [
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
