import { render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '../../../src/api/types';
import { ServiceRunner } from '../../../src/components/ServiceRunner';
import { PlatformProvider } from '../../../src/config';
import { fakeJobs } from '../../fixtures/jobs';
import { expectNoAxeViolations } from '../../setup/axe';

// A service on the demo runtime runs free and says so beside Run (issue 50, item 2; docs/jobs.md,
// metering): "Demo run: free" instead of a price, from the catalogue's `demo` flag.

const service = (demo: boolean): ModelDescriptor => ({
  id: 'lime-diffusion-xl',
  display_name: 'Lime Diffusion XL',
  ...(demo ? { hardware: 'demo' as const, demo: true, demo_reason: 'Runs on the local demo runtime' } : { hardware: 'gpu' as const }),
  endpoints: [{ method: 'POST', path: '/generate', parameters: [{ name: 'prompt', type: 'string', required: true }] }],
});

function setup(model: ModelDescriptor) {
  const jobs = fakeJobs({ estimate: { price: 0.0005, seconds: [2, 4, 3] } });
  return render(
    <PlatformProvider apiUrl="http://localhost:3999" authKey="anon-test-key">
      <main>
        <ServiceRunner serviceId={model.id} service={model} jobs={jobs.client} />
      </main>
    </PlatformProvider>,
  );
}

describe('the price beside Run', () => {
  it('says "Demo run: free" for a demo, and no credits', async () => {
    const { container } = setup(service(true));
    const estimate = container.querySelector('[data-lime="runner-actions"] [data-lime="runner-estimate"]')!;
    expect(estimate).toHaveTextContent(/^Demo run: free$/);
    // Still so once the price basis has arrived.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(estimate).toHaveTextContent(/^Demo run: free$/);
    expect(estimate).not.toHaveTextContent('credits');
    expect(screen.getByRole('button', { name: 'Run' })).toBeEnabled();
    await expectNoAxeViolations(container.querySelector('[data-lime="runner-actions"]')!);
  });

  it('prices a service that runs its real model', async () => {
    const { container } = setup(service(false));
    await waitFor(() => expect(container.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('≈ 0.138 credits'));
    expect(container.querySelector('[data-lime="runner-estimate"]')).not.toHaveTextContent('Demo run');
  });
});
