import type { Plan, PlanKey } from '../api/types';
import type { Strings } from '../config/strings';
import { BILLING_PATH, SIGN_UP_PATH } from './constants';
import { currencySymbol } from './format';

/** A plan card: product-rules §3's Plan plus the "from" of Enterprise's price. */
export interface PricingPlan extends Plan {
  /** Shown before the price (product-rules §9: Enterprise "from 39.99"). */
  pricePrefix?: string | null;
}

/** The money side of each plan (product-rules §9); texts come from the strings table. */
export interface PlanPrice {
  key: PlanKey;
  currency: string;
  priceMajor: number;
  priceCents: number;
  /** A former price shown struck through, written exactly as the spec does. */
  strikeThrough: string | null;
  /** Shows the 'Most Popular' badge. */
  popular: boolean;
  /** Price is a lower bound ("from"). */
  from: boolean;
  active: boolean;
}

/**
 * product-rules §9 plans: Free $0; Plus 4.99 EUR per month; Pro 19.99 EUR per month, struck-through
 * $29,99, Most Popular; Enterprise from 39.99 per person per month. The spec gives Enterprise no
 * currency; it is in EUR like the other paid plans.
 */
export const PLAN_PRICES: readonly PlanPrice[] = [
  { key: 'free', currency: 'USD', priceMajor: 0, priceCents: 0, strikeThrough: null, popular: false, from: false, active: true },
  { key: 'plus', currency: 'EUR', priceMajor: 4, priceCents: 99, strikeThrough: null, popular: false, from: false, active: true },
  { key: 'pro', currency: 'EUR', priceMajor: 19, priceCents: 99, strikeThrough: '$29,99', popular: true, from: false, active: true },
  { key: 'enterprise', currency: 'EUR', priceMajor: 39, priceCents: 99, strikeThrough: null, popular: false, from: true, active: true },
];

/** The plans' keys, in display order. */
export const PLAN_KEYS: readonly PlanKey[] = PLAN_PRICES.map((p) => p.key);

/** Joins prices and texts into product-rules §3 Plan records, in the order Free, Plus, Pro, Enterprise. */
export function buildPlans(texts: Strings['pricing']['plans'], prices: readonly PlanPrice[] = PLAN_PRICES): PricingPlan[] {
  return prices.map((price) => {
    const words = texts[price.key];
    return {
      key: price.key,
      title: words.title,
      sub: words.sub,
      currency: price.currency,
      priceMajor: price.priceMajor,
      priceCents: price.priceCents,
      strikeThrough: price.strikeThrough,
      buttonText: words.buttonText,
      badge: price.popular ? texts.mostPopular : null,
      active: price.active,
      features: Object.values(words.features),
      pricePrefix: price.from ? texts.from : null,
    };
  });
}

/** The parts of a plan's price as shown: `€`, `4`, `.99`; a whole price has no cents (`$0`). */
export function planPriceParts(plan: Pick<Plan, 'currency' | 'priceMajor' | 'priceCents'>) {
  const cents = Math.round(plan.priceCents);
  return {
    symbol: currencySymbol(plan.currency),
    major: String(Math.trunc(plan.priceMajor)),
    cents: cents > 0 ? `.${String(cents).padStart(2, '0')}` : '',
  };
}

/** The full price as one string, for accessible names and tests: `€4.99`, `$0`. */
export function formatPlanPrice(plan: Pick<Plan, 'currency' | 'priceMajor' | 'priceCents'>): string {
  const { symbol, major, cents } = planPriceParts(plan);
  return `${symbol}${major}${cents}`;
}

/**
 * product-rules §9: a plan's button goes to the billing page if logged in, otherwise to sign-up
 * (page_state 0). An unknown login state (null, still loading) counts as logged out.
 */
export function planButtonTarget(isLoggedIn: boolean | null | undefined): string {
  return isLoggedIn === true ? BILLING_PATH : SIGN_UP_PATH;
}
