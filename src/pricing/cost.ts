import { DAYS_PER_MONTH, HOURS_PER_DAY } from './constants';

/** The inputs of the monthly cost formula: requests per hour, execution time and the GPU's price. */
export interface CostInputs {
  requestsPerHour: number;
  executionMs: number;
  /** The GPU's customer price per second, USD. */
  pricePerSecondUsd: number;
}

/**
 * product-rules §9 "rounded": to whole US dollars, half up. Binary floating point turns an exact
 * decimal half (4.5) into 4.499999...; reading the value to 12 significant digits first makes
 * the rounding follow the decimal figures the user typed.
 */
export function roundUsd(amount: number): number {
  if (!Number.isFinite(amount)) return Number.NaN;
  return Math.round(Number(amount.toPrecision(12)));
}

/** Billable GPU seconds in a month: requests per hour x 24 x 30 x ms / 1000 (product-rules §9). */
export function monthlyGpuSeconds(requestsPerHour: number, executionMs: number): number {
  return (requestsPerHour * HOURS_PER_DAY * DAYS_PER_MONTH * executionMs) / 1000;
}

/**
 * product-rules §9: monthly cost = requests per hour x 24 x 30 x execution ms / 1000 x price per second,
 * rounded. Inputs are expected validated (see `validateCalculatorInputs`); anything non-finite
 * or negative gives null rather than NaN or Infinity.
 */
export function monthlyCostUsd({ requestsPerHour, executionMs, pricePerSecondUsd }: CostInputs): number | null {
  const values = [requestsPerHour, executionMs, pricePerSecondUsd];
  if (values.some((v) => typeof v !== 'number' || !Number.isFinite(v) || v < 0)) return null;
  const cost = roundUsd(monthlyGpuSeconds(requestsPerHour, executionMs) * pricePerSecondUsd);
  return Number.isFinite(cost) ? cost : null;
}
