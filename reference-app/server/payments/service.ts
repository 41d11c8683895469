import type { Selectable } from 'kysely';
import type { ServerConfig } from '../config';
import { randomToken } from '../crypto/tokens';
import type { CheckoutSessionsTable, Db, SubscriptionsTable } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import { conflict } from '../errors';
import { log } from '../log';
import { addEntry, balanceOf, entriesOf } from './ledger';
import { recordRefundCase } from './refundCases';
import type { PaymentEvent, PaymentProvider } from './provider';

// Credits and plans: checkouts through the payment provider, the ledger entries they produce
// (exactly once per checkout, however many times completion is reported), and the
// subscription state machine: none -> active -> (cancel_at_period_end) -> canceled.

export type CheckoutRow = Selectable<CheckoutSessionsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;

const SUBSCRIPTION_PERIOD_DAYS = 30;

export interface PaidPlan {
  key: string;
  title: string;
  currency: string;
  amountMinor: number;
}

export class PaymentService {
  constructor(
    private readonly db: Db,
    readonly provider: PaymentProvider,
    private readonly config: ServerConfig,
  ) {}

  balance(userId: string) {
    return balanceOf(this.db, userId);
  }

  transactions(userId: string) {
    return entriesOf(this.db, userId);
  }

  getCheckout(id: string): Promise<CheckoutRow | undefined> {
    return this.db.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async #createCheckout(
    user: { userId: string; email: string },
    input: {
      purpose: 'credits' | 'subscription';
      quantity: number;
      amountMinor: number;
      currency: string;
      planType: string | null;
      description: string;
      successUrl: string;
      cancelUrl: string;
    },
  ): Promise<CheckoutRow> {
    const id = `cs_${this.provider.name}_${randomToken(18)}`;
    const created = await this.provider.createCheckout({ sessionId: id, userId: user.userId, email: user.email, ...input });
    const row = {
      id,
      user_id: user.userId,
      provider: this.provider.name,
      purpose: input.purpose,
      quantity: input.quantity,
      amount_minor: input.amountMinor,
      currency: input.currency,
      plan_type: input.planType,
      status: 'open',
      url: created.url,
      provider_ref: created.providerRef,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    };
    if (input.purpose === 'credits') return this.db.insertInto('checkout_sessions').values(row).returningAll().executeTakeFirstOrThrow();
    // One open subscription checkout per user (a unique index): the new one supersedes the
    // previous, whose later payment becomes a refund case instead of a second plan change.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          await trx
            .updateTable('checkout_sessions')
            .set({ status: 'expired', superseded_by: id })
            .where('user_id', '=', user.userId)
            .where('purpose', '=', 'subscription')
            .where('status', '=', 'open')
            .execute();
          return trx.insertInto('checkout_sessions').values(row).returningAll().executeTakeFirstOrThrow();
        });
      } catch (error) {
        // A concurrent request opened one between our update and insert: supersede it too.
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  /** Opens a checkout for `quantity` credits; with `chargeNow` a sandbox charge settles it at once. */
  async buyCredits(
    user: { userId: string; email: string },
    quantity: number,
    urls: { successUrl: string; cancelUrl: string },
    chargeNow: boolean,
  ): Promise<CheckoutRow> {
    const checkout = await this.#createCheckout(user, {
      purpose: 'credits',
      quantity,
      amountMinor: quantity * this.config.payments.creditPriceMinor,
      currency: this.config.payments.currency,
      planType: null,
      description: `${quantity} ${this.config.brandName} credits`,
      ...urls,
    });
    if (!chargeNow || !this.provider.chargesInstantly) return checkout;
    await this.completeCheckout(checkout.id, checkout.provider_ref, null);
    return (await this.getCheckout(checkout.id))!;
  }

  /**
   * Settles a checkout: marks it complete and books its effect in one transaction. Only the
   * first of several concurrent completions changes anything; the others see it complete. A
   * payment for a checkout that is no longer open (superseded or expired), or for a plan while
   * another is active, changes nothing and is recorded as a refund case (refundCases.ts).
   */
  async completeCheckout(id: string, providerRef: string | null, subscriptionRef: string | null): Promise<boolean> {
    const outcome = await this.db.transaction().execute(async (trx) => {
      const checkout = await trx
        .updateTable('checkout_sessions')
        .set({ status: 'complete', completed_at: new Date(), ...(providerRef ? { provider_ref: providerRef } : {}) })
        .where('id', '=', id)
        .where('status', '=', 'open')
        .returningAll()
        .executeTakeFirst();
      if (!checkout) {
        const stale = await trx.selectFrom('checkout_sessions').selectAll().where('id', '=', id).executeTakeFirst();
        if (!stale || stale.status === 'complete') return { booked: false };
        const reason = stale.superseded_by
          ? `Paid after checkout ${stale.superseded_by} replaced it`
          : 'Paid after the checkout expired or was cancelled';
        return { booked: false, refund: await recordRefundCase(trx, stale, { providerRef, subscriptionRef, reason }) };
      }
      if (checkout.purpose === 'credits') {
        await addEntry(trx, {
          userId: checkout.user_id,
          amount: checkout.quantity,
          kind: 'purchase',
          description: `Purchase of ${checkout.quantity} credits`,
          reference: checkout.id,
        });
        return { booked: true };
      }
      const current = await trx
        .selectFrom('subscriptions')
        .selectAll()
        .where('user_id', '=', checkout.user_id)
        .forUpdate()
        .executeTakeFirst();
      if (current?.status === 'active') {
        const reason = `Paid while the ${current.plan_type} plan was active`;
        return { booked: false, refund: await recordRefundCase(trx, checkout, { providerRef, subscriptionRef, reason }) };
      }
      const now = new Date();
      const values = {
        plan_type: checkout.plan_type ?? 'plus',
        status: 'active',
        cancel_at_period_end: false,
        current_period_end: new Date(now.getTime() + SUBSCRIPTION_PERIOD_DAYS * 86_400_000),
        provider: checkout.provider,
        provider_ref: subscriptionRef ?? checkout.provider_ref,
        updated_at: now,
      };
      await trx
        .insertInto('subscriptions')
        .values({ user_id: checkout.user_id, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
      return { booked: true };
    });
    // The provider must not keep charging for a plan the user does not get.
    if (outcome.refund?.subscription_ref) {
      await this.provider.cancelSubscription(outcome.refund.subscription_ref, false).catch((error: unknown) => {
        log.error(
          { err: error, subscription: outcome.refund!.subscription_ref, refundCase: outcome.refund!.id },
          `payments: could not cancel ${outcome.refund!.subscription_ref} of refund case ${outcome.refund!.id}`,
        );
      });
    }
    return outcome.booked;
  }

  async expireCheckout(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('checkout_sessions')
      .set({ status: 'expired' })
      .where('id', '=', id)
      .where('status', '=', 'open')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  subscription(userId: string): Promise<SubscriptionRow | undefined> {
    return this.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async startSubscription(
    user: { userId: string; email: string },
    plan: PaidPlan,
    urls: { successUrl: string; cancelUrl: string },
  ): Promise<CheckoutRow> {
    const current = await this.subscription(user.userId);
    if (current?.status === 'active') {
      throw conflict(`You already have an active ${current.plan_type} subscription; cancel it before choosing another plan`);
    }
    return this.#createCheckout(user, {
      purpose: 'subscription',
      quantity: 1,
      amountMinor: plan.amountMinor,
      currency: plan.currency,
      planType: plan.key,
      description: `${this.config.brandName} ${plan.title} plan, monthly`,
      ...urls,
    });
  }

  async cancelSubscription(userId: string, atPeriodEnd: boolean): Promise<SubscriptionRow> {
    const current = await this.subscription(userId);
    if (!current || current.status !== 'active') throw conflict('You have no active subscription to cancel');
    await this.provider.cancelSubscription(current.provider_ref, atPeriodEnd);
    const now = new Date();
    return this.db
      .updateTable('subscriptions')
      .set(
        atPeriodEnd
          ? { cancel_at_period_end: true, updated_at: now }
          : { status: 'canceled', cancel_at_period_end: false, current_period_end: now, updated_at: now },
      )
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async reactivateSubscription(userId: string): Promise<SubscriptionRow> {
    const current = await this.subscription(userId);
    if (!current || current.status === 'none') throw conflict('You have no subscription to reactivate');
    if (current.status !== 'active') throw conflict('Your subscription has ended; start a new one instead');
    if (!current.cancel_at_period_end) throw conflict('Your subscription is active and not set to cancel');
    await this.provider.reactivateSubscription(current.provider_ref);
    return this.db
      .updateTable('subscriptions')
      .set({ cancel_at_period_end: false, updated_at: new Date() })
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  /** Applies a provider event (webhook); unknown references are ignored. */
  async handleEvent(event: PaymentEvent): Promise<void> {
    switch (event.type) {
      case 'checkout.completed':
        await this.completeCheckout(event.sessionId, event.providerRef, event.subscriptionRef);
        return;
      case 'checkout.expired':
        await this.expireCheckout(event.sessionId);
        return;
      case 'subscription.updated':
        await this.db
          .updateTable('subscriptions')
          .set({
            status: event.status,
            cancel_at_period_end: event.cancelAtPeriodEnd,
            ...(event.periodEnd ? { current_period_end: event.periodEnd } : {}),
            updated_at: new Date(),
          })
          .where('provider_ref', '=', event.subscriptionRef)
          .execute();
        return;
      case 'subscription.deleted':
        await this.db
          .updateTable('subscriptions')
          .set({ status: 'canceled', cancel_at_period_end: false, updated_at: new Date() })
          .where('provider_ref', '=', event.subscriptionRef)
          .execute();
        return;
    }
  }
}
