import type { Selectable } from 'kysely';
import type { CoreConfig } from '../config/core';
import { randomToken } from '../crypto/tokens';
import type { CheckoutSessionsTable, Db, SubscriptionsTable } from '../db/types';
import { isUniqueViolation } from '../db/errors';
import { conflict } from '../errors';
import { log } from '../log';
import { addEntry, balanceOf, entriesOf } from './ledger';
import { proratedDifferenceMinor, SUBSCRIPTION_PERIOD_DAYS } from './proration';
import {
  completeOpenCheckout,
  expireOpenCheckout,
  insertCheckout,
  selectCheckout,
  selectReceipts,
  selectSubscription,
  selectSubscriptionForUpdate,
  supersedeOpenSubscriptionCheckouts,
  updateSubscription,
  updateSubscriptionByProviderRef,
  upsertSubscription,
} from './queries';
import { recordRefundCase } from './refundCases';
import type { PaymentEvent, PaymentProvider } from './provider';

// Credits and plans: checkouts through the payment provider, the ledger entries they produce
// (exactly once per checkout, however many times completion is reported), and the
// subscription state machine: none -> active -> (cancel_at_period_end) -> canceled.

export type CheckoutRow = Selectable<CheckoutSessionsTable>;
export type SubscriptionRow = Selectable<SubscriptionsTable>;

/** The return URL after paying names the checkout, so the site can confirm what was bought. */
function withCheckoutId(url: string, id: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('checkout_id', id);
  return parsed.toString();
}

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
    private readonly config: CoreConfig,
  ) {}

  balance(userId: string) {
    return balanceOf(this.db, userId);
  }

  transactions(userId: string) {
    return entriesOf(this.db, userId);
  }

  getCheckout(id: string): Promise<CheckoutRow | undefined> {
    return selectCheckout(this.db, id);
  }

  /** The user's own checkout (someone else's answers like a missing one). */
  async checkoutOf(userId: string, id: string): Promise<CheckoutRow | undefined> {
    const row = await selectCheckout(this.db, id);
    return row?.user_id === userId ? row : undefined;
  }

  /** Settled payments and plan-change proration, newest first: the user's receipts. */
  receipts(userId: string): Promise<CheckoutRow[]> {
    return selectReceipts(this.db, userId);
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
    input = { ...input, successUrl: withCheckoutId(input.successUrl, id) };
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
    if (input.purpose === 'credits') return insertCheckout(this.db, row);
    // One open subscription checkout per user (a unique index): the new one supersedes the
    // previous, whose later payment becomes a refund case instead of a second plan change.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction().execute(async (trx) => {
          await supersedeOpenSubscriptionCheckouts(trx, user.userId, id);
          return insertCheckout(trx, row);
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
      const checkout = await completeOpenCheckout(trx, id, providerRef);
      if (!checkout) {
        const stale = await selectCheckout(trx, id);
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
      const current = await selectSubscriptionForUpdate(trx, checkout.user_id);
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
      await upsertSubscription(trx, checkout.user_id, values);
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
    return expireOpenCheckout(this.db, id);
  }

  subscription(userId: string): Promise<SubscriptionRow | undefined> {
    return selectSubscription(this.db, userId);
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

  /**
   * Moves an active subscription to another paid plan at once (docs/payments.md, "Plan changes"):
   * the provider changes it first, then the new plan and the prorated difference (a receipt, charged
   * or refunded) are booked together. The period's end stays.
   */
  async changePlan(userId: string, from: PaidPlan | undefined, to: PaidPlan): Promise<SubscriptionRow> {
    const current = await this.subscription(userId);
    if (!current || current.status !== 'active') throw conflict('You have no active subscription to change; subscribe to a plan instead');
    if (current.cancel_at_period_end) throw conflict('Your subscription is set to end; reactivate it before changing plans');
    if (current.plan_type === to.key) throw conflict(`You are already on the ${to.title} plan`);
    await this.provider.changeSubscriptionPlan({
      subscriptionRef: current.provider_ref,
      planType: to.key,
      description: `${this.config.brandName} ${to.title} plan, monthly`,
      amountMinor: to.amountMinor,
      currency: to.currency,
    });
    const now = new Date();
    const difference = proratedDifferenceMinor({
      fromMinor: from?.amountMinor ?? 0,
      toMinor: to.amountMinor,
      periodEnd: current.current_period_end,
      now,
    });
    return this.db.transaction().execute(async (trx) => {
      await insertCheckout(trx, {
        id: `pc_${this.provider.name}_${randomToken(18)}`,
        user_id: userId,
        provider: this.provider.name,
        purpose: 'plan_change',
        quantity: 1,
        amount_minor: difference,
        currency: to.currency,
        plan_type: to.key,
        status: 'complete',
        url: '',
        provider_ref: current.provider_ref,
        completed_at: now,
      });
      return updateSubscription(trx, userId, { plan_type: to.key, updated_at: now });
    });
  }

  async cancelSubscription(userId: string, atPeriodEnd: boolean): Promise<SubscriptionRow> {
    const current = await this.subscription(userId);
    if (!current || current.status !== 'active') throw conflict('You have no active subscription to cancel');
    await this.provider.cancelSubscription(current.provider_ref, atPeriodEnd);
    const now = new Date();
    return updateSubscription(
      this.db,
      userId,
      atPeriodEnd
        ? { cancel_at_period_end: true, updated_at: now }
        : { status: 'canceled', cancel_at_period_end: false, current_period_end: now, updated_at: now },
    );
  }

  async reactivateSubscription(userId: string): Promise<SubscriptionRow> {
    const current = await this.subscription(userId);
    if (!current || current.status === 'none') throw conflict('You have no subscription to reactivate');
    if (current.status !== 'active') throw conflict('Your subscription has ended; start a new one instead');
    if (!current.cancel_at_period_end) throw conflict('Your subscription is active and not set to cancel');
    await this.provider.reactivateSubscription(current.provider_ref);
    return updateSubscription(this.db, userId, { cancel_at_period_end: false, updated_at: new Date() });
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
        await updateSubscriptionByProviderRef(this.db, event.subscriptionRef, {
          status: event.status,
          cancel_at_period_end: event.cancelAtPeriodEnd,
          ...(event.periodEnd ? { current_period_end: event.periodEnd } : {}),
          updated_at: new Date(),
        });
        return;
      case 'subscription.deleted':
        await updateSubscriptionByProviderRef(this.db, event.subscriptionRef, {
          status: 'canceled',
          cancel_at_period_end: false,
          updated_at: new Date(),
        });
        return;
    }
  }
}
