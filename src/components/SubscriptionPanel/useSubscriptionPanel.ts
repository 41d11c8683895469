import { useCallback, useState } from 'react';
import type { ApiResult } from '../../api/result';
import type { PlanKey, Subscription } from '../../api/types';
import { formatString } from '../../config/strings';
import { useStrings } from '../../config/PlatformProvider';
import { useAccountClients, useApiResource, useFeedback, useSignInState } from '../AccountPanel';
import { SUBSCRIBABLE_PLANS, type SubscriptionAction } from './subscriptionActions';

export interface UseSubscriptionPanelOptions {
  /** Called with the subscription after every change. */
  onChange?: (subscription: Subscription) => void;
  /**
   * Where checkout returns to after subscribing (or giving up).
   * @default the current page
   */
  returnUrl?: string;
}

/** Headless subscription panel: the plan and its status; subscribe, cancel (now or at period end), reactivate. */
export function useSubscriptionPanel({ onChange, returnUrl }: UseSubscriptionPanelOptions = {}) {
  const { payment } = useAccountClients();
  const strings = useStrings().account;
  const feedback = useFeedback();
  const signIn = useSignInState();
  const load = useCallback(() => payment.subscription(), [payment]);
  const warnLoad = useCallback(() => feedback.show('warning', strings.loadProblem), [feedback, strings.loadProblem]);
  const subscription = useApiResource(load, { enabled: signIn === 'signed-in', onError: warnLoad });
  const [plan, setPlan] = useState<PlanKey>(SUBSCRIBABLE_PLANS[0]!);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [pending, setPending] = useState(false);
  const statusText = (s: Subscription) =>
    ({ none: strings.statusNone, active: strings.statusActive, canceled: strings.statusCanceled, past_due: strings.statusPastDue })[
      s.status
    ];

  const apply = async (call: () => Promise<ApiResult<Subscription>>) => {
    setPending(true);
    const result = await call();
    setPending(false);
    setConfirmingCancel(false);
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
    confirmingCancel,
    askCancel: () => setConfirmingCancel(true),
    keep: () => setConfirmingCancel(false),
    pending,
    feedback,
  };
}
