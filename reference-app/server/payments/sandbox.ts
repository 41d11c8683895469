import type { PaymentProvider } from './provider';
import { PaymentProviderError } from './provider';

/**
 * Completes payments on this server: the checkout URL is the sandbox page at
 * /sandbox/checkout/<id>, where "Pay" settles it. No card data, no network.
 */
export function createSandboxProvider(publicUrl: string): PaymentProvider {
  return {
    name: 'sandbox',
    chargesInstantly: true,
    async createCheckout(request) {
      return { url: `${publicUrl}/sandbox/checkout/${encodeURIComponent(request.sessionId)}`, providerRef: `sandbox_${request.sessionId}` };
    },
    async cancelSubscription() {},
    async reactivateSubscription() {},
    // The sandbox's test card on file pays the prorated difference at once (service.ts books it).
    async changeSubscriptionPlan() {},
    async parseWebhook() {
      throw new PaymentProviderError('The sandbox provider has no webhooks: checkouts complete on /sandbox/checkout/<id>');
    },
  };
}
