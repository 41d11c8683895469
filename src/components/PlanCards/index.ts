export { PlanCards } from './PlanCards';
export type { PlanCardsProps } from './PlanCards';
export { usePlanCards } from './usePlanCards';
export type { UsePlanCardsOptions } from './usePlanCards';
export { PLAN_PRICES, PLAN_KEYS } from '../../pricing/plans';
export type { PlanPrice, PricingPlan } from '../../pricing/plans';
