export { PricingCalculator } from './PricingCalculator';
export type { PricingCalculatorProps } from './PricingCalculator';
export type { PricingCalculatorValue, PricingEstimate } from './usePricingCalculator';
