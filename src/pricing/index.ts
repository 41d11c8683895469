// @limelight/widgets/pricing: the pricing rules with no React and no DOM, safe on a server
// (a Next Server Component, the platform server): the calculator's cost formula, defaults and
// input rules, the plans and the price formats. Stable. The calculator component is
// `@limelight/widgets/pricing-calculator`, the plan cards `@limelight/widgets/plan-cards`.
export { DEFAULT_REQUESTS_PER_HOUR, DEFAULT_EXECUTION_MS } from './constants';
export { monthlyCostUsd, monthlyGpuSeconds } from './cost';
export type { CostInputs } from './cost';
export { validateCalculatorInputs } from './input';
export type { CalculatorInputs, CalculatorValidation } from './input';
export { BUNDLED_PRICING_SERVERS } from './pricingServersCache';
export { PLAN_PRICES, PLAN_KEYS, buildPlans } from './plans';
export type { PlanPrice, PricingPlan } from './plans';
export { formatMonthlyCost, formatPricePerHour, formatPricePerSecond } from './format';
