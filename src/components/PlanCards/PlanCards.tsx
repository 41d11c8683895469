import { useId } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { useThemeClass } from '../../config/useThemeClass';
import type { GlobalEventsStore } from '../../notifications/globalEvents';
import type { PlanKey } from '../../api/types';
import { planPriceParts, type PricingPlan } from '../../pricing/plans';
import * as styles from './PlanCards.css';
import { usePlanCards } from './usePlanCards';

/** Props of `PlanCards`. */
export interface PlanCardsProps {
  /**
   * Whether the visitor is signed in; decides where the buttons go (product-rules §9).
   * @default the global events store's is_logged_in (unknown counts as signed out)
   */
  isLoggedIn?: boolean;
  /**
   * Global events store to read the login state from.
   * @default the page-wide `globalEvents` store
   */
  store?: GlobalEventsStore;
  /**
   * Called with the plan and the target path before navigating; return false to stay.
   */
  onSelect?: (plan: PricingPlan, target: string) => boolean | void;
  /**
   * Heading level of each plan's title.
   * @default 3
   */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /**
   * Only these plans, in this order.
   * @default ['free', 'plus', 'pro', 'enterprise']
   */
  plans?: PlanKey[];
  /** Extra class on the list. */
  className?: string;
}

function CheckIcon() {
  return (
    <svg
      className={styles.check}
      width="16"
      height="16"
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M20 6 9 17l-5-5" />
    </svg>
  );
}

/**
 * Plan cards for Free, Plus, Pro and Enterprise (product-rules §9): price, struck-through former price,
 * 'Most Popular' badge and features; the button goes to billing when signed in, else to sign-up.
 */
export function PlanCards({ isLoggedIn, store, onSelect, headingLevel = 3, plans: only, className }: PlanCardsProps) {
  const strings = useStrings().pricing.plans;
  const themeClass = useThemeClass();
  const id = useId();
  const { plans, choose, loggedIn } = usePlanCards({ isLoggedIn, store, onSelect });
  const shown = only ? only.map((key) => plans.find((p) => p.key === key)).filter((p): p is PricingPlan => !!p) : plans;
  const Heading = `h${headingLevel}` as const;

  return (
    <ul
      className={[themeClass, styles.list, className].filter(Boolean).join(' ')}
      aria-label={strings.listLabel}
      data-lime="plan-cards"
      data-state={loggedIn ? 'signed-in' : 'signed-out'}
    >
      {shown.map((plan) => {
        const titleId = `${id}-${plan.key}`;
        const { symbol, major, cents } = planPriceParts(plan);
        const popular = !!plan.badge;
        return (
          <li key={plan.key} className={styles.item}>
            <article className={styles.card({ highlighted: popular })} aria-labelledby={titleId} data-plan={plan.key}>
              <div className={styles.header}>
                <Heading id={titleId} className={styles.title}>
                  {plan.title}
                </Heading>
                {plan.badge && <span className={styles.badge}>{plan.badge}</span>}
              </div>
              <div className={styles.priceBlock}>
                {plan.strikeThrough && (
                  <span>
                    <span className={styles.visuallyHidden}>{strings.previousPrice} </span>
                    <s className={styles.strike}>{plan.strikeThrough}</s>
                  </span>
                )}
                <p className={styles.price}>
                  {plan.pricePrefix && <span className={styles.prefix}>{plan.pricePrefix}</span>}
                  <span className={styles.amount}>
                    {symbol}
                    {major}
                    {cents && <span className={styles.cents}>{cents}</span>}
                  </span>
                  <span className={styles.sub}>{plan.sub}</span>
                </p>
              </div>
              <ul className={styles.features}>
                {plan.features.map((feature) => (
                  <li key={feature} className={styles.feature}>
                    <CheckIcon />
                    <span>{feature}</span>
                  </li>
                ))}
              </ul>
              <button
                type="button"
                className={styles.button({ emphasis: popular ? 'primary' : 'secondary' })}
                disabled={!plan.active}
                onClick={() => choose(plan)}
              >
                {plan.buttonText}
              </button>
            </article>
          </li>
        );
      })}
    </ul>
  );
}
