import { useId, useMemo } from 'react';
import type { PricingServer } from '../../api/types';
import { useStrings } from '../../config/PlatformProvider';
import { formatString } from '../../config/strings';
import { useThemeClass } from '../../config/useThemeClass';
import { CPU_TIER_SERVER, isCpuTier } from '../../pricing/cpuTier';
import { formatLimit, formatMonthlyCost } from '../../pricing/format';
import { FIELD_MAX, type CalculatorField } from '../../pricing/input';
import { GpuTable } from './GpuTable';
import * as styles from './PricingCalculator.css';
import { usePricingCalculator, type PricingCalculatorValue, type PricingEstimate } from './usePricingCalculator';
import { usePricingServers } from './usePricingServers';

/** Props of `PricingCalculator`. */
export interface PricingCalculatorProps {
  /** Controlled inputs (chip and both fields). Pair with `onValueChange`. */
  value?: PricingCalculatorValue;
  /**
   * Initial inputs when uncontrolled.
   * @default { gpuVramGb: null (the smallest), requestsPerHour: '100', executionMs: '300' }
   */
  defaultValue?: Partial<PricingCalculatorValue>;
  /** Called with the inputs after every change (chip or keystroke), valid or not. */
  onValueChange?: (value: PricingCalculatorValue) => void;
  /**
   * Called with each new valid estimate (the first one too): the GPU, both inputs and the
   * monthly cost in whole US dollars. Not called while an input is invalid.
   */
  onChange?: (estimate: PricingEstimate) => void;
  /**
   * Servers to price with, instead of the bundled cache and the live `pricing_servers` call.
   * Still filtered to the two third-party providers and sorted by price per second.
   */
  servers?: readonly PricingServer[];
  /**
   * Fetch live prices after showing the bundled cache (product-rules §4).
   * @default true
   */
  live?: boolean;
  /**
   * Shows the GPU price table below the estimate.
   * @default true
   */
  showTable?: boolean;
  /**
   * Heading level of the calculator's title (2-6), or 0 for no visible title.
   * @default 3
   */
  headingLevel?: 0 | 2 | 3 | 4 | 5 | 6;
  /** Extra class on the root element. */
  className?: string;
}

/**
 * Serverless cost calculator (product-rules §2 Pricing page, §9): a GPU memory chip selector, requests per
 * hour and execution time, the monthly estimate and the GPU table sorted by price per second.
 */
export function PricingCalculator({
  value,
  defaultValue,
  onValueChange,
  onChange,
  servers: givenServers,
  live = true,
  showTable = true,
  headingLevel = 3,
  className,
}: PricingCalculatorProps) {
  const strings = useStrings().pricing;
  const t = strings.calculator;
  const themeClass = useThemeClass();
  const id = useId();
  const { servers: gpus, source } = usePricingServers({ servers: givenServers, live });
  // The CPU tier is a chip and a row of its own beside the GPUs (memory 0; src/pricing/cpuTier.ts).
  const servers = useMemo(() => (gpus.length ? [CPU_TIER_SERVER, ...gpus] : gpus), [gpus]);
  const calc = usePricingCalculator({ servers, value, defaultValue, onValueChange, onChange });

  const titleId = `${id}-title`;
  const estimateLabelId = `${id}-estimate`;
  const Heading = headingLevel ? (`h${headingLevel}` as const) : null;
  const fieldIds: Record<CalculatorField, string> = { requestsPerHour: `${id}-rph`, executionMs: `${id}-ms` };

  const renderField = (field: CalculatorField, labelText: string) => {
    const error = calc.errors[field];
    const errorId = `${fieldIds[field]}-error`;
    return (
      <div className={styles.field}>
        <label className={styles.label} htmlFor={fieldIds[field]}>
          {labelText}
        </label>
        <input
          id={fieldIds[field]}
          name={field}
          className={styles.input({ invalid: !!error })}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          value={calc.value[field]}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
          data-state={error ? 'invalid' : 'valid'}
          onChange={(event) => calc.setField(field, event.currentTarget.value)}
        />
        {error && (
          <p id={errorId} className={styles.fieldError}>
            {formatString(t.errors[error], { max: formatLimit(FIELD_MAX[field]) })}
          </p>
        )}
      </div>
    );
  };

  return (
    <section
      className={[themeClass, styles.root, className].filter(Boolean).join(' ')}
      aria-labelledby={Heading ? titleId : undefined}
      aria-label={Heading ? undefined : t.title}
      data-lime="pricing-calculator"
      data-state={calc.estimate ? 'valid' : 'invalid'}
      data-source={source}
    >
      {Heading && (
        <Heading id={titleId} className={styles.title}>
          {t.title}
        </Heading>
      )}
      {servers.length === 0 ? (
        <p className={styles.empty}>{t.noServers}</p>
      ) : (
        <>
          <fieldset className={styles.fieldset}>
            <legend className={styles.legend}>{t.gpuMemory}</legend>
            <div className={styles.chips}>
              {calc.memories.map((vram) => {
                const checked = vram === calc.selectedVram;
                const cheapest = servers.find((s) => s.gpu_vram_gb === vram);
                return (
                  <label key={vram} className={styles.chip({ checked })} data-state={checked ? 'checked' : 'unchecked'}>
                    <input
                      className={styles.radio}
                      type="radio"
                      name={`${id}-gpu`}
                      value={vram}
                      checked={checked}
                      onChange={() => calc.selectMemory(vram)}
                    />
                    <span className={styles.chipMemory}>
                      {vram === 0 && cheapest ? cheapest.display_name : formatString(t.vram, { vram })}
                    </span>
                    {cheapest && <span className={styles.chipName}>{vram === 0 ? t.cpuTier : cheapest.display_name}</span>}
                  </label>
                );
              })}
            </div>
          </fieldset>
          <div className={styles.fields}>
            {renderField('requestsPerHour', t.requestsPerHour)}
            {renderField('executionMs', t.executionMs)}
          </div>
          <div className={styles.estimate}>
            <span id={estimateLabelId} className={styles.estimateLabel}>
              {t.monthlyCost}
            </span>
            <output
              className={styles.estimateFigure({ state: calc.estimate ? 'valid' : 'invalid' })}
              aria-labelledby={estimateLabelId}
              aria-live="polite"
              htmlFor={`${fieldIds.requestsPerHour} ${fieldIds.executionMs}`}
              data-testid="monthly-cost"
            >
              {calc.estimate ? (
                <>
                  <span data-value={calc.estimate.monthlyCostUsd}>{formatMonthlyCost(calc.estimate.monthlyCostUsd)}</span>
                  <span className={styles.perMonth}>{t.perMonth}</span>
                </>
              ) : (
                t.noEstimate
              )}
            </output>
            {calc.estimate && (
              <span className={styles.estimateOn}>
                {isCpuTier(calc.estimate.server)
                  ? t.cpuTier
                  : formatString(t.estimateOn, {
                      name: calc.estimate.server.display_name,
                      vram: calc.estimate.server.gpu_vram_gb,
                      provider: calc.estimate.server.provider,
                    })}
              </span>
            )}
          </div>
          {showTable && <GpuTable servers={servers} selectedId={calc.server?.id ?? null} />}
        </>
      )}
    </section>
  );
}
