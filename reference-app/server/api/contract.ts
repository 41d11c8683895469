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
import type * as S from './schemas';

// Compile-time proof that what the server answers is what the clients in src/api expect: each
// response schema's output type must be assignable to the client's type. `tsc` fails here the
// day either side drifts.

type Assignable<A, B> = [A] extends [B] ? true : false;
type Check<T extends true> = T;

export type ContractChecks = [
  Check<Assignable<z.output<typeof S.ModelCategorySchema>, ModelCategory>>,
  Check<Assignable<z.output<typeof S.ModelDescriptorSchema>, ModelDescriptor>>,
  Check<Assignable<z.output<typeof S.PricingServerSchema>, PricingServer>>,
  Check<Assignable<z.output<typeof S.ModelPricingRowSchema>, ModelPricingRow>>,
  Check<Assignable<z.output<typeof S.HostingInformationSchema>, HostingInformation>>,
  Check<Assignable<z.output<typeof S.PlanSchema>, Plan>>,
  Check<Assignable<z.output<typeof S.ProfileResultSchema>, ProfileResult>>,
  Check<Assignable<z.output<typeof S.ApiKeySchema>, ApiKey>>,
  Check<Assignable<z.output<typeof S.CreatedApiKeySchema>, CreatedApiKey>>,
  Check<Assignable<z.output<typeof S.UsageStatisticsSchema>, UsageStatistics>>,
  Check<Assignable<z.output<typeof S.RegistryCredentialSchema>, RegistryCredential>>,
  Check<Assignable<z.output<typeof S.BalanceSchema>, Balance>>,
  Check<Assignable<z.output<typeof S.TransactionSchema>, Transaction>>,
  Check<Assignable<z.output<typeof S.CheckoutSessionSchema>, CheckoutSession>>,
  Check<Assignable<z.output<typeof S.SubscriptionSchema>, Subscription>>,
  Check<Assignable<z.output<typeof S.SubscriptionOptionSchema>, SubscriptionOption>>,
];
