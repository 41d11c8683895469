export { PricingCalculator } from './PricingCalculator';
export type { PricingCalculatorProps } from './PricingCalculator';
export { GpuTable } from './GpuTable';
export type { GpuTableProps } from './GpuTable';
export { usePricingCalculator, memoryOptions, serverForMemory } from './usePricingCalculator';
export type { PricingCalculatorValue, PricingEstimate, UsePricingCalculatorOptions } from './usePricingCalculator';
export { usePricingServers } from './usePricingServers';
export type { PricingServersSource, UsePricingServersOptions } from './usePricingServers';
export * from '../../pricing';
