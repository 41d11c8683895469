import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ModelDescriptor } from '@limelight/widgets/api';
import { PlatformProvider } from '@limelight/widgets/platform';
import { ServiceRunner } from '@limelight/widgets/service-runner';
import { expectNoAxeViolations } from '../../setup/axe';
import { fakeJobs, IMAGE_DATA_URI, makeJob } from '../../fixtures/jobs';

// The Playground's first view (issue 38, item 3; issue 39, item 5): the endpoint's example
// input filled in, its output beside it labelled as an example, and the price of a run, before
// anyone runs anything; the visitor's own run replaces the example.

const EXAMPLE_IMAGE = '/media/examples/product-shot.png';

const cutout: ModelDescriptor = {
  id: 'lime-cutout',
  display_name: 'Lime Cutout',
  endpoints: [
    {
      method: 'POST',
      path: '/remove',
      output: { type: 'image' },
      parameters: [
        { name: 'image', type: 'file', required: true, description: 'Subject on a plain backdrop' },
        { name: 'tolerance', type: 'integer', required: false, default: 30, minimum: 1, maximum: 100 },
      ],
      example: {
        input: { image: EXAMPLE_IMAGE, tolerance: 40 },
        result: { image: { url: '/media/examples/lime-cutout-image.png', content_type: 'image/png', size: 7769 } },
        run_seconds: 2,
        runtime: 'local',
      },
    },
    {
      method: 'POST',
      path: '/describe',
      output: { type: 'text' },
      parameters: [{ name: 'prompt', type: 'string', required: true, description: 'Question' }],
    },
  ],
};

function setup(props: { defaultInput?: Record<string, unknown> } = {}) {
  const jobs = fakeJobs({ estimate: { price: 0.0005, seconds: [] } });
  const user = userEvent.setup();
  const view = render(
    <PlatformProvider apiUrl="http://localhost:3999" authKey="anon-test-key">
      <ServiceRunner serviceId={cutout.id} service={cutout} jobs={jobs.client} defaultInput={props.defaultInput} />
    </PlatformProvider>,
  );
  return { ...view, jobs, user };
}

const exampleNote = () => document.querySelector('[data-lime="runner-example-input"]');
const output = () => document.querySelector('[data-lime="runner-output"]');

describe('ServiceRunner: the first view', () => {
  it("opens on the example's input, its output labelled as an example, and the price of a run", async () => {
    const { container } = setup();
    expect(exampleNote()).toHaveTextContent('Filled in with the example input');
    expect(screen.getByRole('img', { name: 'Preview of product-shot.png' })).toHaveAttribute(
      'src',
      `http://localhost:3999${EXAMPLE_IMAGE}`,
    );
    expect(screen.getByRole('spinbutton', { name: 'Tolerance' })).toHaveValue(40);
    expect(output()).toHaveAttribute('data-example', 'true');
    expect(screen.getByRole('heading', { name: 'Example output' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Generated image' })).toHaveAttribute(
      'src',
      'http://localhost:3999/media/examples/lime-cutout-image.png',
    );
    expect(screen.getByText('Runtime: local')).toBeInTheDocument();
    // 2 s (the example's run) x $0.0005/s x 92 credits/USD, before any run of the endpoint.
    const estimate = container.querySelector('[data-lime="runner-estimate"]');
    await waitFor(() => expect(estimate).toHaveTextContent('≈ 0.092 credits a run'));
    expect(estimate).toHaveTextContent('the example took 2 s');
    await expectNoAxeViolations(container);
  });

  it("runs the example's input as shown; the run's own output replaces the example", async () => {
    const ctx = setup();
    await ctx.user.click(screen.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(ctx.jobs.created).toHaveLength(1));
    expect(ctx.jobs.created[0]).toEqual({ service_id: 'lime-cutout', endpoint: '/remove', input: { image: EXAMPLE_IMAGE, tolerance: 40 } });
    ctx.jobs.push(
      makeJob({
        service_id: 'lime-cutout',
        endpoint: '/remove',
        status: 'FINISHED',
        progress: 1,
        runtime: 'local',
        result: { image: { url: IMAGE_DATA_URI, content_type: 'image/png', size: 68 } },
        finished_at: new Date().toISOString(),
      }),
    );
    await waitFor(() => expect(screen.getByRole('img', { name: 'Generated image' })).toHaveAttribute('src', IMAGE_DATA_URI));
    expect(output()).not.toHaveAttribute('data-example');
    expect(screen.queryByRole('heading', { name: 'Example output' })).toBeNull();
  });

  it('an edit, a reset or another endpoint drops the "example input" note; an endpoint without an example opens empty', async () => {
    const ctx = setup();
    const tolerance = screen.getByRole('spinbutton', { name: 'Tolerance' });
    await ctx.user.clear(tolerance);
    await ctx.user.type(tolerance, '55');
    expect(exampleNote()).toBeNull();
    await ctx.user.selectOptions(screen.getByRole('combobox', { name: 'Endpoint' }), '/describe');
    expect(screen.getByRole('textbox', { name: /Prompt/ })).toHaveValue('');
    expect(output()).toHaveAttribute('data-example', 'none');
    await ctx.user.selectOptions(screen.getByRole('combobox', { name: 'Endpoint' }), '/remove');
    expect(exampleNote()).not.toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Tolerance' })).toHaveValue(40);
    await ctx.user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(exampleNote()).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Tolerance' })).toHaveValue(30);
  });

  it('an input given by the page (a past run) wins over the example', () => {
    setup({ defaultInput: { image: '/media/files/mine.png', tolerance: 12 } });
    expect(exampleNote()).toBeNull();
    expect(screen.getByRole('spinbutton', { name: 'Tolerance' })).toHaveValue(12);
  });
});
