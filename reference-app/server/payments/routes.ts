import { createRoute, z } from '@hono/zod-openapi';
import type { SignedInEnv } from '../api/authenticate';
import type { CoreConfig } from '../config/core';
import { IdempotencyKeyHeaders, idempotentCreate } from '../api/idempotency';
import type { Db } from '../db/types';
import { badRequest, invalid, notFound } from '../errors';
import { body, createApiApp, errors, json } from '../api/openapi';
import { PaymentProviderError } from './provider';
import { selectPlan, selectPlans } from './queries';
import {
  BalanceSchema,
  BuyCreditSchema,
  CheckoutDetailSchema,
  CheckoutSessionSchema,
  PlanSchema,
  ReceiptSchema,
  SubscriptionChangeSchema,
  SubscriptionCreateSchema,
  SubscriptionSchema,
  TransactionSchema,
} from './schemas';
import type { PaidPlan, PaymentService } from './service';
import { checkoutDetailOf, checkoutOf, guarded, planOf, receiptOf, returnUrl, subscriptionOf, transactionOf } from './views';

// /v1/payment/: credits (a ledger; the balance is its sum), checkouts through the payment
// provider, the plan subscription (service.ts), the plans and the provider's webhook.

const tags = ['payment'];

/** A plan as the payment service charges it (price in cents, lower-case currency). */
async function paidPlanOf(db: Db, key: string): Promise<PaidPlan | undefined> {
  const plan = await selectPlan(db, key);
  if (!plan) return undefined;
  return {
    key: plan.key,
    title: plan.title,
    currency: plan.currency.toLowerCase(),
    amountMinor: plan.price_major * 100 + plan.price_cents,
  };
}

/** The plans and the provider's webhook (which carries its own signature instead of a token). */
export function paymentPublicRoutes({ db, payments }: { db: Db; payments: PaymentService }) {
  const app = createApiApp();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/plans',
      tags,
      summary: 'The plans of product-rules §9, in display order',
      responses: { 200: json(z.array(PlanSchema), 'Plans') },
    }),
    async (c) => c.json((await selectPlans(db)).map(planOf), 200),
  );

  app.post('/webhook/:provider', async (c) => {
    if (c.req.param('provider') !== payments.provider.name) {
      throw notFound(`No webhook for provider ${c.req.param('provider')} (this server uses ${payments.provider.name})`);
    }
    const raw = await c.req.text();
    let event;
    try {
      event = await payments.provider.parseWebhook(raw, c.req.raw.headers);
    } catch (error) {
      if (error instanceof PaymentProviderError) throw badRequest(`Webhook rejected: ${error.message}`);
      if (error instanceof SyntaxError) throw badRequest('Webhook body is not valid JSON');
      throw error;
    }
    if (event) await payments.handleEvent(event);
    return c.json({ received: true });
  });

  return app;
}

/**
 * The credits the queue holds for a caller's open jobs (`holds` of jobs/service.ts). Jobs charge
 * through payments, so payments names only the one call it makes (docs/architecture.md, "Server layers").
 */
export interface CreditHolds {
  holds(userId: string): Promise<{ reserved: number }>;
}

export function paymentRoutes({ db, config, payments, jobs }: { db: Db; config: CoreConfig; payments: PaymentService; jobs: CreditHolds }) {
  const app = createApiApp<SignedInEnv>();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/balance',
      tags,
      summary: 'Credit balance (the sum of the ledger) and the credits held by queued and running jobs',
      responses: { 200: json(BalanceSchema, 'Balance') },
    }),
    async (c) => {
      const userId = c.var.caller.userId;
      const [balance, holds] = await Promise.all([payments.balance(userId), jobs.holds(userId)]);
      const { currency, creditPriceMinor } = config.payments;
      return c.json({ balance, reserved: holds.reserved, credit_price: { currency, amount_minor: creditPriceMinor } }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/get_transactions',
      tags,
      summary: 'Ledger entries, newest first',
      responses: { 200: json(z.array(TransactionSchema), 'Transactions') },
    }),
    async (c) => c.json((await payments.transactions(c.var.caller.userId)).map(transactionOf), 200),
  );

  for (const [path, summary, chargeNow] of [
    [
      '/buy_credit',
      'Buys credits: the sandbox charges its test card at once (status complete); a card provider returns an open checkout',
      true,
    ],
    ['/create_checkout_session', 'Opens a checkout for credits; the browser pays at url', false],
  ] as const) {
    app.use(path, idempotentCreate(db));
    app.openapi(
      createRoute({
        method: 'post',
        path,
        tags,
        summary,
        request: { ...body(BuyCreditSchema), headers: IdempotencyKeyHeaders },
        responses: { 200: json(CheckoutSessionSchema, 'Checkout session'), ...errors(422, 502) },
      }),
      async (c) => {
        const input = c.req.valid('json');
        const urls = {
          successUrl: returnUrl(config, 'success_url', input.success_url, '/account/billing?checkout=success'),
          cancelUrl: returnUrl(config, 'cancel_url', input.cancel_url, '/account/billing?checkout=cancel'),
        };
        const checkout = await guarded(() => payments.buyCredits(c.var.caller, input.quantity, urls, chargeNow));
        return c.json(checkoutOf(checkout), 200);
      },
    );
  }

  app.openapi(
    createRoute({
      method: 'get',
      path: '/subscription',
      tags,
      summary: 'The caller’s plan subscription (plan free, status none without one)',
      responses: { 200: json(SubscriptionSchema, 'Subscription') },
    }),
    async (c) => c.json(subscriptionOf(await payments.subscription(c.var.caller.userId)), 200),
  );

  app.use('/subscription/create', idempotentCreate(db));
  app.openapi(
    createRoute({
      method: 'post',
      path: '/subscription/create',
      tags,
      summary: 'Starts a plan subscription; the browser confirms it at checkout_url',
      request: { ...body(SubscriptionCreateSchema), headers: IdempotencyKeyHeaders },
      responses: { 200: json(SubscriptionSchema, 'Current state plus checkout_url'), ...errors(409, 422, 502) },
    }),
    async (c) => {
      const { caller } = c.var;
      const input = c.req.valid('json');
      if (input.plan_type === 'free') throw invalid('plan_type: the free plan needs no subscription');
      if (input.plan_type === 'enterprise') throw invalid('plan_type: the enterprise plan is arranged with our team; contact support');
      const urls = {
        successUrl: returnUrl(config, 'success_url', input.success_url, ''),
        cancelUrl: returnUrl(config, 'cancel_url', input.cancel_url, ''),
      };
      const paidPlan = await paidPlanOf(db, input.plan_type);
      if (!paidPlan) throw invalid(`plan_type: unknown plan ${input.plan_type}`);
      const checkout = await guarded(() => payments.startSubscription(caller, paidPlan, urls));
      return c.json(subscriptionOf(await payments.subscription(caller.userId), checkout.url), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/subscription/change',
      tags,
      summary: 'Moves the active subscription to another plan at once; the prorated difference is charged or refunded (a receipt)',
      request: body(SubscriptionChangeSchema),
      responses: { 200: json(SubscriptionSchema, 'Subscription on the new plan'), ...errors(409, 422, 502) },
    }),
    async (c) => {
      const userId = c.var.caller.userId;
      const to = await paidPlanOf(db, c.req.valid('json').plan_type);
      if (!to) throw invalid('plan_type: unknown plan');
      const current = await payments.subscription(userId);
      const from = current ? await paidPlanOf(db, current.plan_type) : undefined;
      return c.json(subscriptionOf(await guarded(() => payments.changePlan(userId, from, to))), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/receipts',
      tags,
      summary: 'Receipts of settled payments and plan changes, newest first',
      responses: { 200: json(z.array(ReceiptSchema), 'Receipts') },
    }),
    async (c) => c.json((await payments.receipts(c.var.caller.userId)).map(receiptOf), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/checkouts/{id}',
      tags,
      summary: 'One of the caller’s checkouts: what the return page confirms after paying',
      request: { params: z.object({ id: z.string().min(1).max(200) }) },
      responses: { 200: json(CheckoutDetailSchema, 'Checkout'), ...errors(404) },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const row = await payments.checkoutOf(c.var.caller.userId, id);
      if (!row) throw notFound(`No checkout ${id}`);
      return c.json(checkoutDetailOf(row), 200);
    },
  );

  for (const [path, summary, run] of [
    ['/subscription/cancel', 'Cancels the subscription now', (userId: string) => payments.cancelSubscription(userId, false)],
    [
      '/subscription/cancel_at_period_end',
      'Cancels the subscription at the end of the paid period',
      (userId: string) => payments.cancelSubscription(userId, true),
    ],
    ['/subscription/reactivate', 'Undoes a cancellation at period end', (userId: string) => payments.reactivateSubscription(userId)],
  ] as const) {
    app.openapi(
      createRoute({
        method: 'post',
        path,
        tags,
        summary,
        responses: { 200: json(SubscriptionSchema, 'Subscription'), ...errors(409, 502) },
      }),
      async (c) => c.json(subscriptionOf(await guarded(() => run(c.var.caller.userId))), 200),
    );
  }

  return app;
}
