import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import type { PricingServer } from '../src/api';
import { PricingCalculator, type PricingEstimate } from '../src/components/PricingCalculator';

// The calculator of product-rules §2/§9: defaults, each chip, invalid inputs, the cache and the
// host-fed list, the empty list, and a host page following the change event.

const SERVERS: PricingServer[] = [
  {
    id: 'runpod-a4000',
    display_name: 'RTX A4000',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 16,
    customer_price_per_s_usd: 0.00016,
  },
  {
    id: 'runpod-a5000',
    display_name: 'RTX A5000',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 24,
    customer_price_per_s_usd: 0.00019,
  },
  {
    id: 'runpod-a6000',
    display_name: 'RTX A6000',
    provider: 'runpod',
    physical_gpus: 1,
    gpu_vram_gb: 48,
    customer_price_per_s_usd: 0.00034,
  },
  {
    id: 'replicate-a100',
    display_name: 'A100',
    provider: 'replicate',
    physical_gpus: 1,
    gpu_vram_gb: 80,
    customer_price_per_s_usd: 0.0014,
  },
  { id: 'runpod-h200', display_name: 'H200', provider: 'runpod', physical_gpus: 1, gpu_vram_gb: 141, customer_price_per_s_usd: 0.00155 },
  {
    id: 'other-t4',
    display_name: 'T4 (filtered out)',
    provider: 'some-cloud',
    physical_gpus: 1,
    gpu_vram_gb: 16,
    customer_price_per_s_usd: 0.00001,
  },
];

const meta = {
  title: 'Pricing/PricingCalculator',
  component: PricingCalculator,
  args: { servers: SERVERS, onChange: (estimate: PricingEstimate) => console.info('[estimate]', estimate) },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof PricingCalculator>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Defaults of product-rules §9: 100 requests per hour, 300 ms, the smallest GPU memory. */
export const Default: Story = {};

/** Another chip chosen. */
export const LargeGpu: Story = { args: { defaultValue: { gpuVramGb: 141, requestsPerHour: '1000', executionMs: '2500' } } };

/** Empty field: a field error, no estimate. */
export const EmptyInput: Story = { args: { defaultValue: { requestsPerHour: '' } } };

/** Negative value. */
export const NegativeInput: Story = { args: { defaultValue: { executionMs: '-300' } } };

/** Not a number. */
export const NonNumericInput: Story = { args: { defaultValue: { requestsPerHour: 'lots' } } };

/** Absurdly large value: an error, never NaN or Infinity. */
export const TooLargeInput: Story = { args: { defaultValue: { requestsPerHour: '1e400', executionMs: '99999999' } } };

/** Without a host list: the bundled cache (product-rules §4), live prices switched off. */
export const BundledCache: Story = { args: { servers: undefined, live: false } };

/** No servers of the two providers left after filtering. */
export const NoServers: Story = { args: { servers: [SERVERS[5]!] } };

/** Without the GPU table. */
export const WithoutTable: Story = { args: { showTable: false } };

/** A host page showing the emitted estimate next to the calculator. */
export const HostFollowsChanges: Story = {
  render: (args) => <HostPage {...args} />,
};
function HostPage(args: React.ComponentProps<typeof PricingCalculator>) {
  const [estimate, setEstimate] = useState<PricingEstimate | null>(null);
  return (
    <div>
      <PricingCalculator {...args} onChange={setEstimate} />
      <p role="status">Host page: {estimate ? `${estimate.server.display_name}, $${estimate.monthlyCostUsd} per month` : 'no estimate'}</p>
    </div>
  );
}
