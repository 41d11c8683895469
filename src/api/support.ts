import { createApiClient, type ClientOptions } from './http';
import type { NewsletterPayload, SubscriptionOption, SupportPayload } from './types';

export const SUPPORT_PREFIX = '/v1/support/';

/** Support service (product-rules §7): open calls except `support`, which needs a token. */
export function createSupportClient(options: ClientOptions) {
  const client = createApiClient({ ...options, prefix: SUPPORT_PREFIX, defaultAuth: 'none' });
  return {
    client,
    subscriptionOptions: () => client.get<SubscriptionOption[]>('subscription_options'),
    subscribeNewsletter: (payload: NewsletterPayload) =>
      client.post<{ subscribed: number[]; pending_confirmation: number[] }>('subscribe_newsletter', payload),
    unsubscribeNewsletter: (payload: NewsletterPayload) =>
      client.post<{ unsubscribed: number[] }>('unsubscribe_newsletter', payload, { auth: 'optional' }),
    contactSupport: (payload: SupportPayload) => client.post<{ id: string }>('support', payload, { auth: 'required' }),
  };
}

/** The support API client: support requests and the newsletter. */
export type SupportClient = ReturnType<typeof createSupportClient>;
