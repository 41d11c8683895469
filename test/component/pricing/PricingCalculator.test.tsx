import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { PricingServer } from '@limelight/widgets/api';
import { PricingCalculator, type PricingCalculatorValue, type PricingEstimate } from '@limelight/widgets/pricing-calculator';
import { BUNDLED_PRICING_SERVERS } from '../../../src/pricing/pricingServersCache';
import { expectNoAxeViolations } from '../../setup/axe';

const server = (id: string, name: string, provider: string, vram: number, price: number): PricingServer => ({
  id,
  display_name: name,
  provider,
  physical_gpus: 1,
  gpu_vram_gb: vram,
  customer_price_per_s_usd: price,
});

// Deliberately unsorted, with servers of other providers that must not appear (product-rules §7).
const SERVERS: PricingServer[] = [
  server('rp-h100', 'H100', 'runpod', 80, 0.00116),
  server('aws-t4', 'T4 (aws)', 'aws', 16, 0.00001),
  server('rp-a4000', 'RTX A4000', 'runpod', 16, 0.00016),
  server('rep-a100', 'A100', 'replicate', 80, 0.0014),
  server('rp-a5000', 'RTX A5000', 'runpod', 24, 0.00019),
  server('own-l4', 'L4 (own)', 'limelight', 24, 0.00002),
  server('rp-a100', 'A100', 'runpod', 80, 0.00076),
  server('rp-h200', 'H200', 'runpod', 141, 0.00155),
];

const estimateText = () => screen.getByRole('status', { name: 'Estimated monthly cost' }).textContent;
const rph = () => screen.getByRole('textbox', { name: 'Requests per hour' });
const ms = () => screen.getByRole('textbox', { name: 'Execution time (ms)' });

describe('PricingCalculator (product-rules §2 Pricing page, §9 Calculator)', () => {
  it('product-rules §9: starts at 100 requests per hour, 300 ms, on the smallest GPU memory, with the rounded estimate', async () => {
    const onChange = vi.fn();
    const { container } = render(<PricingCalculator servers={SERVERS} onChange={onChange} />);
    expect(rph()).toHaveValue('100');
    expect(ms()).toHaveValue('300');
    expect(screen.getByRole('radio', { name: /16 GB/ })).toBeChecked();
    // 100 x 24 x 30 x 300 / 1000 = 21,600 s x $0.00016 = $3.456 -> $3
    expect(estimateText()).toBe('$3per month');
    expect(screen.getByText('on RTX A4000 (16 GB, runpod)')).toBeInTheDocument();
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));
    expect(onChange).toHaveBeenLastCalledWith({
      server: SERVERS[2],
      requestsPerHour: 100,
      executionMs: 300,
      monthlyCostUsd: 3,
    } satisfies PricingEstimate);
    await expectNoAxeViolations(container);
  });

  it('product-rules §9: one chip per GPU memory size, smallest first; the estimate uses the cheapest GPU of that size', async () => {
    render(<PricingCalculator servers={SERVERS} />);
    const chips = within(screen.getByRole('group', { name: 'GPU memory' })).getAllByRole('radio');
    expect(chips.map((c) => c.closest('label')!.textContent)).toEqual([
      'CPUCPU tier, per CPU-second',
      '16 GBRTX A4000',
      '24 GBRTX A5000',
      '80 GBA100',
      '141 GBH200',
    ]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /80 GB/ }));
    // Cheapest 80 GB is runpod's A100 at $0.00076: 21,600 s -> $16.416 -> $16
    expect(estimateText()).toBe('$16per month');
    expect(screen.getByText('on A100 (80 GB, runpod)')).toBeInTheDocument();
  });

  it('prices the CPU tier per CPU-second, from the one price table (@limelight/rules CPU_PRICE)', async () => {
    const user = userEvent.setup();
    const { container } = render(<PricingCalculator servers={SERVERS} defaultValue={{ requestsPerHour: '1000', executionMs: '2500' }} />);
    await user.click(screen.getByRole('radio', { name: /^CPU/ }));
    // 1,000 x 720 x 2.5 = 1,800,000 CPU-seconds x $0.00002 = $36
    expect(estimateText()).toBe('$36per month');
    // The estimate names the tier, as it names a GPU.
    expect(estimateText()).toBe('$36per month');
    expect(container.querySelector('[data-lime="pricing-calculator"]')!.textContent).toContain('per monthCPU tier, per CPU-second');
    const row = screen.getByRole('row', { current: true });
    expect(within(row).getByRole('rowheader')).toHaveTextContent('CPU tier, per CPU-second (Selected)');
    expect(within(row).getAllByRole('cell')[0]).toHaveTextContent('—');
    // After the chips' 120 ms colour transition, which axe would measure half-way.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expectNoAxeViolations(container);
  });

  it('product-rules §9: changes GPU and inputs by keyboard alone', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    render(<PricingCalculator servers={SERVERS} onChange={onChange} />);

    await user.tab();
    expect(screen.getByRole('radio', { name: /16 GB/ })).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('radio', { name: /24 GB/ })).toBeChecked();
    // 21,600 s x $0.00019 = $4.104 -> $4
    expect(estimateText()).toBe('$4per month');

    await user.tab();
    expect(rph()).toHaveFocus();
    await user.keyboard('{Control>}a{/Control}1000');
    expect(rph()).toHaveValue('1000');
    await user.tab();
    expect(ms()).toHaveFocus();
    await user.keyboard('{Control>}a{/Control}2500');
    // 1,000 x 720 x 2.5 = 1,800,000 s x $0.00019 = $342
    expect(estimateText()).toBe('$342per month');
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith({ server: SERVERS[4], requestsPerHour: 1000, executionMs: 2500, monthlyCostUsd: 342 }),
    );
  });

  it('product-rules §9: invalid input shows a field error, never NaN or Infinity, and emits nothing', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const { container } = render(<PricingCalculator servers={SERVERS} onChange={onChange} />);
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(1));

    const cases: Array<[string, string]> = [
      ['', 'Enter a number.'],
      ['-5', 'Must be 0 or more.'],
      ['abc', 'Enter a number, digits only.'],
      ['99999999', 'Must be at most 1,000,000.'],
      ['9'.repeat(400), 'Must be at most 1,000,000.'],
    ];
    for (const [typed, message] of cases) {
      // Pasted whole, so no valid prefix ("9", "99", ...) is emitted on the way.
      await user.clear(rph());
      if (typed) await user.paste(typed);
      expect(rph()).toHaveAttribute('aria-invalid', 'true');
      expect(rph()).toHaveAccessibleDescription(message);
      expect(estimateText()).toBe('Fix the inputs to see an estimate');
      expect(container.textContent).not.toMatch(/NaN|Infinity/);
      expect(container.querySelector('[data-lime="pricing-calculator"]')).toHaveAttribute('data-state', 'invalid');
    }
    await expectNoAxeViolations(container);

    await user.clear(ms());
    await user.paste('-1');
    expect(ms()).toHaveAccessibleDescription('Must be 0 or more.');
    await user.clear(ms());
    await user.paste('4000000');
    expect(ms()).toHaveAccessibleDescription('Must be at most 3,600,000.');
    expect(onChange).toHaveBeenCalledTimes(1);

    await user.clear(rph());
    await user.paste('200');
    await user.clear(ms());
    await user.paste('300');
    expect(rph()).not.toHaveAttribute('aria-invalid');
    expect(estimateText()).toBe('$7per month'); // 43,200 s x $0.00016 = $6.912
    await waitFor(() => expect(onChange).toHaveBeenCalledTimes(2));
  });

  it('product-rules §9/§7: the GPU table lists only the two providers, sorted by price per second', () => {
    render(<PricingCalculator servers={SERVERS} />);
    const table = screen.getByRole('table', { name: 'Serverless GPU prices, cheapest first' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual([
      '$0.00002',
      '$0.00016',
      '$0.00019',
      '$0.00076',
      '$0.00116',
      '$0.00140',
      '$0.00155',
    ]);
    expect(table).not.toHaveTextContent('aws');
    expect(table).not.toHaveTextContent('L4 (own)');
    // The CPU tier comes first, cheapest (issue 50, item 3); the smallest GPU stays selected.
    expect(within(rows[0]!).getByRole('rowheader')).toHaveTextContent('CPU tier, per CPU-second');
    expect(rows[1]).toHaveAttribute('aria-current', 'true');
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('RTX A4000 (Selected)');
    expect(within(rows[1]!).getAllByRole('cell')[3]).toHaveTextContent('$0.58'); // per hour
  });

  it('product-rules §4: without a host list it shows the bundled cache', () => {
    const { container } = render(<PricingCalculator live={false} />);
    expect(container.querySelector('[data-lime="pricing-calculator"]')).toHaveAttribute('data-source', 'cache');
    // The GPUs, the CPU tier and the header row.
    expect(screen.getAllByRole('row')).toHaveLength(BUNDLED_PRICING_SERVERS.length + 2);
  });

  it('value / defaultValue / onValueChange', async () => {
    const user = userEvent.setup();
    const { unmount } = render(<PricingCalculator servers={SERVERS} defaultValue={{ gpuVramGb: 141, requestsPerHour: '10' }} />);
    expect(screen.getByRole('radio', { name: /141 GB/ })).toBeChecked();
    expect(rph()).toHaveValue('10');
    expect(ms()).toHaveValue('300');
    unmount();

    const onValueChange = vi.fn();
    function Controlled() {
      const [value, setValue] = useState<PricingCalculatorValue>({ gpuVramGb: 24, requestsPerHour: '50', executionMs: '1000' });
      return (
        <PricingCalculator
          servers={SERVERS}
          value={value}
          onValueChange={(next) => {
            onValueChange(next);
            setValue({ ...next, requestsPerHour: next.requestsPerHour.replace(/7/g, '') });
          }}
        />
      );
    }
    render(<Controlled />);
    expect(screen.getByRole('radio', { name: /24 GB/ })).toBeChecked();
    await user.type(rph(), '7');
    expect(onValueChange).toHaveBeenLastCalledWith({ gpuVramGb: 24, requestsPerHour: '507', executionMs: '1000' });
    expect(rph()).toHaveValue('50'); // the parent refused the 7
    await user.click(screen.getByRole('radio', { name: /80 GB/ }));
    expect(onValueChange).toHaveBeenLastCalledWith({ gpuVramGb: 80, requestsPerHour: '50', executionMs: '1000' });
  });

  it('says so when no server is left', () => {
    render(<PricingCalculator servers={[server('x', 'X', 'aws', 16, 0.1)]} />);
    expect(screen.getByText('No GPU prices available right now.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
