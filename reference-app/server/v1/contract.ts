import type { z } from '@hono/zod-openapi';
import type {
  ApiKey,
  Balance,
  CheckoutSession,
  CreatedApiKey,
  HostingInformation,
  ModelCategory,
  ModelDescriptor,
  ModelPricingRow,
  Plan,
  PricingServer,
  ProfileResult,
  RegistryCredential,
  Subscription,
  SubscriptionOption,
  Transaction,
  UsageStatistics,
} from '@limelight/widgets/api';
import type * as Catalogue from '../catalogue/schemas';
import type * as Hosting from '../hosting/schemas';
import type * as Payments from '../payments/schemas';
import type * as Profile from '../profile/schemas';
import type * as Support from '../support/schemas';

// Compile-time proof that what the server answers is what the clients in src/api expect: each
// response schema's output type must be assignable to the client's type. `tsc` fails here the
// day either side drifts.

type Assignable<A, B> = [A] extends [B] ? true : false;
type Check<T extends true> = T;

export type ContractChecks = [
  Check<Assignable<z.output<typeof Catalogue.ModelCategorySchema>, ModelCategory>>,
  Check<Assignable<z.output<typeof Catalogue.ModelDescriptorSchema>, ModelDescriptor>>,
  Check<Assignable<z.output<typeof Catalogue.PricingServerSchema>, PricingServer>>,
  Check<Assignable<z.output<typeof Catalogue.ModelPricingRowSchema>, ModelPricingRow>>,
  Check<Assignable<z.output<typeof Hosting.HostingInformationSchema>, HostingInformation>>,
  Check<Assignable<z.output<typeof Payments.PlanSchema>, Plan>>,
  Check<Assignable<z.output<typeof Profile.ProfileResultSchema>, ProfileResult>>,
  Check<Assignable<z.output<typeof Profile.ApiKeySchema>, ApiKey>>,
  Check<Assignable<z.output<typeof Profile.CreatedApiKeySchema>, CreatedApiKey>>,
  Check<Assignable<z.output<typeof Profile.UsageStatisticsSchema>, UsageStatistics>>,
  Check<Assignable<z.output<typeof Profile.RegistryCredentialSchema>, RegistryCredential>>,
  Check<Assignable<z.output<typeof Payments.BalanceSchema>, Balance>>,
  Check<Assignable<z.output<typeof Payments.TransactionSchema>, Transaction>>,
  Check<Assignable<z.output<typeof Payments.CheckoutSessionSchema>, CheckoutSession>>,
  Check<Assignable<z.output<typeof Payments.SubscriptionSchema>, Subscription>>,
  Check<Assignable<z.output<typeof Support.SubscriptionOptionSchema>, SubscriptionOption>>,
];
