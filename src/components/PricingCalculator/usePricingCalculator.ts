import { useEffect, useMemo, useRef } from 'react';
import type { PricingServer } from '../../api/types';
import { DEFAULT_EXECUTION_MS, DEFAULT_REQUESTS_PER_HOUR } from '../../pricing/constants';
import { monthlyCostUsd } from '../../pricing/cost';
import { validateCalculatorInputs, type CalculatorField, type FieldErrorCode } from '../../pricing/input';
import { useControllableState } from '../../internal/useControllableState';

/** The calculator's inputs as the user set them (text fields stay text, so invalid input can be shown). */
export interface PricingCalculatorValue {
  /** The chosen GPU memory chip, in GB (0: the CPU tier); null picks the smallest GPU. */
  gpuVramGb: number | null;
  requestsPerHour: string;
  executionMs: string;
}

/** What the calculator tells its host after each change that gives a valid estimate. */
export interface PricingEstimate {
  /** The cheapest GPU with the chosen memory (the one the estimate is for). */
  server: PricingServer;
  requestsPerHour: number;
  executionMs: number;
  /** product-rules §9 formula, rounded to whole US dollars. */
  monthlyCostUsd: number;
}

export interface UsePricingCalculatorOptions {
  servers: readonly PricingServer[];
  value?: PricingCalculatorValue;
  defaultValue?: Partial<PricingCalculatorValue>;
  onValueChange?: (value: PricingCalculatorValue) => void;
  onChange?: (estimate: PricingEstimate) => void;
}

/** Distinct GPU memory sizes, smallest first: the chips. */
export function memoryOptions(servers: readonly PricingServer[]): number[] {
  return [...new Set(servers.map((s) => s.gpu_vram_gb))].sort((a, b) => a - b);
}

/** The cheapest server with exactly that memory (servers come sorted by price, product-rules §9). */
export function serverForMemory(servers: readonly PricingServer[], vram: number | null): PricingServer | undefined {
  return servers.find((s) => s.gpu_vram_gb === vram);
}

/**
 * Headless serverless cost calculator (product-rules §2, §9): chip selection by GPU memory, the two
 * number fields with their errors, and the estimate. Emits `onChange` with each new valid
 * estimate (also the first one), so a host page can follow along.
 */
export function usePricingCalculator({ servers, value, defaultValue, onValueChange, onChange }: UsePricingCalculatorOptions) {
  const [state, setState] = useControllableState<PricingCalculatorValue>(
    value,
    {
      gpuVramGb: defaultValue?.gpuVramGb ?? null,
      requestsPerHour: defaultValue?.requestsPerHour ?? String(DEFAULT_REQUESTS_PER_HOUR),
      executionMs: defaultValue?.executionMs ?? String(DEFAULT_EXECUTION_MS),
    },
    onValueChange,
  );

  const memories = useMemo(() => memoryOptions(servers), [servers]);
  // A chosen size the (live) list no longer has falls back to the smallest.
  // The CPU tier (memory 0) is chosen only on purpose: the default stays the smallest GPU.
  const selectedVram =
    state.gpuVramGb !== null && memories.includes(state.gpuVramGb) ? state.gpuVramGb : (memories.find((m) => m > 0) ?? memories[0] ?? null);
  const server = serverForMemory(servers, selectedVram);
  const validation = validateCalculatorInputs(state);
  const cost =
    validation.ok && server
      ? monthlyCostUsd({
          requestsPerHour: validation.values.requestsPerHour,
          executionMs: validation.values.executionMs,
          pricePerSecondUsd: server.customer_price_per_s_usd,
        })
      : null;
  const estimate: PricingEstimate | null =
    validation.ok && server && cost !== null
      ? { server, requestsPerHour: validation.values.requestsPerHour, executionMs: validation.values.executionMs, monthlyCostUsd: cost }
      : null;

  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const lastEmitted = useRef<string | null>(null);
  const estimateKey = estimate
    ? `${estimate.server.id}|${estimate.requestsPerHour}|${estimate.executionMs}|${estimate.monthlyCostUsd}`
    : null;
  useEffect(() => {
    if (!estimate || estimateKey === lastEmitted.current) return;
    lastEmitted.current = estimateKey;
    onChangeRef.current?.(estimate);
    // estimateKey captures everything the estimate is made of.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [estimateKey]);

  return {
    value: state,
    memories,
    selectedVram,
    server,
    estimate,
    errors: validation.errors as Partial<Record<CalculatorField, FieldErrorCode>>,
    selectMemory: (gpuVramGb: number) => setState((previous) => ({ ...previous, gpuVramGb })),
    setField: (field: CalculatorField, text: string) => setState((previous) => ({ ...previous, [field]: text })),
  };
}
