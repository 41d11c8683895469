import { createRoute, z } from '@hono/zod-openapi';
import { isAllowedRedirect } from '../auth/redirects';
import { PaymentProviderError } from '../payments/provider';
import { PaymentStateError, type CheckoutRow, type SubscriptionRow } from '../payments/service';
import { authenticate, requireCaller } from './caller';
import type { ApiDeps } from './deps';
import { ApiHttpError, conflict, invalid } from './errors';
import { bearer, body, errors, json, type ApiApp } from './openapi';
import {
  BalanceSchema,
  BuyCreditSchema,
  CheckoutSessionSchema,
  PlanSchema,
  SubscriptionCreateSchema,
  SubscriptionSchema,
  TransactionSchema,
} from './schemas';

// /v1/payment/ (spec §7): credits (a ledger; the balance is its sum), checkouts through the
// payment provider, the plan subscription, and the provider's webhook.

const tags = ['payment'];
type Subscription = z.output<typeof SubscriptionSchema>;
type Transaction = z.output<typeof TransactionSchema>;

const checkoutOf = (row: CheckoutRow) => ({ id: row.id, url: row.url, status: row.status as 'open' | 'complete' | 'expired' });

function subscriptionOf(row: SubscriptionRow | undefined, checkoutUrl?: string): Subscription {
  return {
    plan_type: (row?.plan_type ?? 'free') as Subscription['plan_type'],
    status: (row?.status ?? 'none') as Subscription['status'],
    cancel_at_period_end: row?.cancel_at_period_end ?? false,
    current_period_end: row?.current_period_end?.toISOString() ?? null,
    ...(checkoutUrl ? { checkout_url: checkoutUrl } : {}),
  };
}

/** Runs a payment operation, turning state and provider failures into API errors. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentStateError) throw conflict(error.message);
    if (error instanceof PaymentProviderError) throw new ApiHttpError(502, `Payment provider error: ${error.message}`, { cause: error });
    throw error;
  }
}

export function registerPayment(app: ApiApp, deps: ApiDeps) {
  const { db, config, payments } = deps;

  /** Return URLs must lead back to this site (no open redirect through the checkout). */
  function returnUrl(field: string, value: string | undefined, fallbackPath: string): string {
    if (value === undefined) return `${config.publicUrl}${fallbackPath}`;
    if (!isAllowedRedirect(config, value)) throw invalid(`${field}: must be an http(s) URL on this site (${config.publicUrl})`);
    return value;
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payment/balance',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Credit balance: the sum of the ledger',
      responses: { 200: json(BalanceSchema, 'Balance'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      return c.json({ balance: await payments.balance(caller.userId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payment/get_transactions',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Ledger entries, newest first',
      responses: { 200: json(z.array(TransactionSchema), 'Transactions'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const rows = await payments.transactions(caller.userId);
      return c.json(
        rows.map((r) => ({
          id: r.id,
          amount: r.amount,
          kind: r.kind as Transaction['kind'],
          description: r.description,
          created_at: r.created_at.toISOString(),
        })),
        200,
      );
    },
  );

  for (const [path, summary, chargeNow] of [
    [
      '/payment/buy_credit',
      'Buys credits: the sandbox charges its test card at once (status complete); a card provider returns an open checkout',
      true,
    ],
    ['/payment/create_checkout_session', 'Opens a checkout for credits; the browser pays at url', false],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path,
        tags,
        security: bearer,
        middleware: [authenticate(deps)] as const,
        summary,
        request: body(BuyCreditSchema),
        responses: { 200: json(CheckoutSessionSchema, 'Checkout session'), ...errors(401, 422, 502) },
      }),
      async (c) => {
        const caller = await requireCaller(c, deps);
        const input = c.req.valid('json');
        const urls = {
          successUrl: returnUrl('success_url', input.success_url, '/account/billing?checkout=success'),
          cancelUrl: returnUrl('cancel_url', input.cancel_url, '/account/billing?checkout=cancel'),
        };
        const checkout = await guarded(() => payments.buyCredits(caller, input.quantity, urls, chargeNow));
        return c.json(checkoutOf(checkout), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payment/subscription',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'The caller’s plan subscription (plan free, status none without one)',
      responses: { 200: json(SubscriptionSchema, 'Subscription'), ...errors(401) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      return c.json(subscriptionOf(await payments.subscription(caller.userId)), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/payment/subscription/create',
      tags,
      security: bearer,
      middleware: [authenticate(deps)] as const,
      summary: 'Starts a plan subscription; the browser confirms it at checkout_url',
      request: body(SubscriptionCreateSchema),
      responses: { 200: json(SubscriptionSchema, 'Current state plus checkout_url'), ...errors(401, 409, 422, 502) },
    }),
    async (c) => {
      const caller = await requireCaller(c, deps);
      const input = c.req.valid('json');
      if (input.plan_type === 'free') throw invalid('plan_type: the free plan needs no subscription');
      if (input.plan_type === 'enterprise') throw invalid('plan_type: the enterprise plan is arranged with our team; contact support');
      const urls = {
        successUrl: returnUrl('success_url', input.success_url, ''),
        cancelUrl: returnUrl('cancel_url', input.cancel_url, ''),
      };
      const plan = await db.selectFrom('plans').selectAll().where('key', '=', input.plan_type).executeTakeFirst();
      if (!plan) throw invalid(`plan_type: unknown plan ${input.plan_type}`);
      const checkout = await guarded(() =>
        payments.startSubscription(
          caller,
          {
            key: plan.key,
            title: plan.title,
            currency: plan.currency.toLowerCase(),
            amountMinor: plan.price_major * 100 + plan.price_cents,
          },
          urls,
        ),
      );
      return c.json(subscriptionOf(await payments.subscription(caller.userId), checkout.url), 200);
    },
  );

  for (const [path, summary, run] of [
    ['/payment/subscription/cancel', 'Cancels the subscription now', (userId: string) => payments.cancelSubscription(userId, false)],
    [
      '/payment/subscription/cancel_at_period_end',
      'Cancels the subscription at the end of the paid period',
      (userId: string) => payments.cancelSubscription(userId, true),
    ],
    [
      '/payment/subscription/reactivate',
      'Undoes a cancellation at period end',
      (userId: string) => payments.reactivateSubscription(userId),
    ],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path,
        tags,
        security: bearer,
        middleware: [authenticate(deps)] as const,
        summary,
        responses: { 200: json(SubscriptionSchema, 'Subscription'), ...errors(401, 409, 502) },
      }),
      async (c) => {
        const caller = await requireCaller(c, deps);
        return c.json(subscriptionOf(await guarded(() => run(caller.userId))), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/payment/plans',
      tags,
      summary: 'The plans of spec §9, in display order',
      responses: { 200: json(z.array(PlanSchema), 'Plans') },
    }),
    async (c) => {
      const rows = await db.selectFrom('plans').selectAll().orderBy('sort_idx').execute();
      return c.json(
        rows.map((p) => ({
          key: p.key as 'free' | 'plus' | 'pro' | 'enterprise',
          title: p.title,
          sub: p.sub,
          currency: p.currency,
          priceMajor: p.price_major,
          priceCents: p.price_cents,
          strikeThrough: p.strike_through,
          buttonText: p.button_text,
          badge: p.badge,
          active: p.active,
          features: p.features,
        })),
        200,
      );
    },
  );

  // Provider webhooks carry their own signature instead of a bearer token.
  app.post('/payment/webhook/:provider', async (c) => {
    if (c.req.param('provider') !== payments.provider.name) {
      throw new ApiHttpError(404, `No webhook for provider ${c.req.param('provider')} (this server uses ${payments.provider.name})`);
    }
    const raw = await c.req.text();
    let event;
    try {
      event = await payments.provider.parseWebhook(raw, c.req.raw.headers);
    } catch (error) {
      if (error instanceof PaymentProviderError) throw new ApiHttpError(400, `Webhook rejected: ${error.message}`);
      if (error instanceof SyntaxError) throw new ApiHttpError(400, 'Webhook body is not valid JSON');
      throw error;
    }
    if (event) await payments.handleEvent(event);
    return c.json({ received: true });
  });
}
