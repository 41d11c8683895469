import { useCallback, useState } from 'react';
import type { ApiResult } from '../../api/result';
import type { PlanKey, Subscription } from '../../api/types';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { formatDate, useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';
import { SUBSCRIBABLE_PLANS, statusKind, type SubscriptionAction } from './subscriptionActions';

/** A change waiting for the user's confirmation: a cancel (now or at period end) or a plan switch. */
export type PendingConfirmation = { action: 'cancel' | 'cancelAtPeriodEnd' } | { action: 'change'; plan: PlanKey };

export interface UseSubscriptionPanelOptions {
  /** Called with the subscription after every change. */
  onChange?: (subscription: Subscription) => void;
  /**
   * Where checkout returns to after subscribing (or giving up).
   * @default the current page
   */
  returnUrl?: string;
}

/**
 * Headless subscription panel: the plan and its status; subscribe, cancel (now or at period end)
 * and switch plans, each after a confirmation; reactivate.
 */
export function useSubscriptionPanel({ onChange, returnUrl }: UseSubscriptionPanelOptions = {}) {
  const { payment } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => payment.subscription(), [payment]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const subscription = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [plan, setPlan] = useState<PlanKey>(SUBSCRIBABLE_PLANS[0]!);
  const [confirming, setConfirming] = useState<PendingConfirmation | null>(null);
  const [pending, setPending] = useState(false);
  const statusText = (s: Subscription) => {
    const kind = statusKind(s);
    if (kind === 'ending') return formatString(strings.endsOn, { date: formatDate(s.current_period_end) });
    return { none: strings.statusNone, active: strings.statusActive, canceled: strings.statusCanceled, past_due: strings.statusPastDue }[
      kind
    ];
  };

  const apply = async (call: () => Promise<ApiResult<Subscription>>) => {
    setPending(true);
    const result = await call();
    setPending(false);
    setConfirming(null);
    if (!result.ok) return null;
    subscription.setData(result.data);
    feedback.show('success', formatString(strings.subscriptionUpdated, { status: statusText(result.data) }), 3000);
    onChange?.(result.data);
    return result.data;
  };

  const change = async (action: SubscriptionAction) => {
    const call = {
      cancel: payment.cancelSubscription,
      cancelAtPeriodEnd: payment.cancelSubscriptionAtPeriodEnd,
      reactivate: payment.reactivateSubscription,
    }[action];
    if ((await apply(call)) === null) feedback.show('warning', strings.unexpected);
  };

  const changePlan = async (to: PlanKey) => {
    if (to !== 'plus' && to !== 'pro') return;
    if ((await apply(() => payment.changeSubscription(to))) === null) feedback.show('warning', strings.unexpected);
  };

  /** Carries out the confirmed change. */
  const confirm = () => {
    if (!confirming) return;
    return confirming.action === 'change' ? changePlan(confirming.plan) : change(confirming.action);
  };

  const subscribe = async () => {
    const here = returnUrl ?? window.location.href;
    const created = await apply(() => payment.createSubscription({ plan_type: plan, success_url: here, cancel_url: here }));
    if (created === null) return feedback.show('warning', strings.unexpected);
    if (created.checkout_url) window.location.assign(created.checkout_url);
  };

  return {
    subscription,
    statusText,
    plan,
    setPlan,
    subscribe,
    change,
    /** The change waiting for confirmation, if any. */
    confirming,
    /** Asks to confirm a change before it is made. */
    ask: setConfirming,
    confirm,
    /** True while "Cancel now" waits for confirmation. */
    confirmingCancel: confirming?.action === 'cancel',
    askCancel: () => setConfirming({ action: 'cancel' }),
    keep: () => setConfirming(null),
    pending,
    feedback,
  };
}
