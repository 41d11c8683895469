export {
  DEFAULT_REQUESTS_PER_HOUR,
  DEFAULT_EXECUTION_MS,
  HOURS_PER_DAY,
  DAYS_PER_MONTH,
  MAX_REQUESTS_PER_HOUR,
  MAX_EXECUTION_MS,
  BILLING_PATH,
  SIGN_UP_PATH,
} from './constants';
export { monthlyCostUsd, monthlyGpuSeconds, roundUsd } from './cost';
export type { CostInputs } from './cost';
export { parseNumberField, validateCalculatorInputs, FIELD_MAX } from './input';
export type { CalculatorField, CalculatorInputs, CalculatorValidation, FieldErrorCode, FieldResult } from './input';
export { isUsablePricingServer, preparePricingServers, sortByPricePerSecond } from './servers';
export { BUNDLED_PRICING_SERVERS } from './pricingServersCache';
export { PLAN_PRICES, PLAN_KEYS, buildPlans, planButtonTarget, planPriceParts, formatPlanPrice } from './plans';
export type { PlanPrice, PricingPlan } from './plans';
export { formatMonthlyCost, formatPricePerHour, formatPricePerSecond, formatLimit, currencySymbol } from './format';
