import type { PlanKey, Subscription } from '../../api/types';

export type SubscriptionAction = 'cancelAtPeriodEnd' | 'cancel' | 'reactivate';

/** Plans a user subscribes to here; free needs no subscription and enterprise is by contact. */
export const SUBSCRIBABLE_PLANS: readonly PlanKey[] = ['plus', 'pro'];

/**
 * What the user may do with a subscription in its state: an active one can be canceled now or
 * at the period's end; one set to end, or canceled, can be reactivated; without one (or after
 * it lapsed) they can subscribe.
 */
export function availableActions(sub: Pick<Subscription, 'status' | 'cancel_at_period_end'> | null): {
  actions: SubscriptionAction[];
  canSubscribe: boolean;
} {
  if (!sub || sub.status === 'none') return { actions: [], canSubscribe: true };
  const actions: SubscriptionAction[] = [];
  if (sub.status === 'active' && !sub.cancel_at_period_end) actions.push('cancelAtPeriodEnd');
  if (sub.status === 'active' || sub.status === 'past_due') actions.push('cancel');
  if (sub.cancel_at_period_end || sub.status === 'canceled') actions.push('reactivate');
  return { actions, canSubscribe: sub.status === 'canceled' };
}

/**
 * The plans an active subscription may switch to (docs/payments.md, "Plan changes"): the other
 * subscribable plan, and none while it is set to end (it must be reactivated first).
 */
export function planChangeTargets(sub: Pick<Subscription, 'status' | 'cancel_at_period_end' | 'plan_type'> | null): PlanKey[] {
  if (!sub || sub.status !== 'active' || sub.cancel_at_period_end) return [];
  return SUBSCRIBABLE_PLANS.filter((key) => key !== sub.plan_type);
}

/** Whether moving from one plan to another costs more (an upgrade charges, a downgrade refunds). */
export const isUpgrade = (from: PlanKey, to: PlanKey) => SUBSCRIBABLE_PLANS.indexOf(to) > SUBSCRIBABLE_PLANS.indexOf(from);

/** What the status line says: a subscription set to end states its end date, not "active". */
export function statusKind(
  sub: Pick<Subscription, 'status' | 'cancel_at_period_end' | 'current_period_end'>,
): Subscription['status'] | 'ending' {
  return sub.status === 'active' && sub.cancel_at_period_end && sub.current_period_end ? 'ending' : sub.status;
}
