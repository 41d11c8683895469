import { useMemo } from 'react';
import { usePlatform } from '../../config/PlatformProvider';
import type { GlobalEventsStore } from '../../notifications/globalEvents';
import { useGlobalEvents } from '../../notifications/useGlobalEvents';
import { buildPlans, planButtonTarget, type PricingPlan } from '../../pricing/plans';

export interface UsePlanCardsOptions {
  /** Overrides the login state read from the global events store. */
  isLoggedIn?: boolean;
  /** Global events store to read `is_logged_in` from. */
  store?: GlobalEventsStore;
  /** Called before navigating; return false to stay (e.g. a host that opens its own dialog). */
  onSelect?: (plan: PricingPlan, target: string) => boolean | void;
}

/** Plans with their texts, and what a plan's button does (product-rules §9). */
export function usePlanCards({ isLoggedIn, store, onSelect }: UsePlanCardsOptions = {}) {
  const { navigate, strings } = usePlatform();
  const storeLoggedIn = useGlobalEvents((state) => state.is_logged_in, store);
  const loggedIn = isLoggedIn ?? storeLoggedIn;
  const plans = useMemo(() => buildPlans(strings.pricing.plans), [strings]);
  const target = planButtonTarget(loggedIn);
  const choose = (plan: PricingPlan) => {
    if (onSelect?.(plan, target) === false) return;
    navigate(target);
  };
  return { plans, target, choose, loggedIn: loggedIn === true };
}
