import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Job, ModelDescriptor } from '@limelight/widgets/api';
import { PlatformProvider } from '@limelight/widgets/platform';
import { ServiceRunner } from '@limelight/widgets/service-runner';
import { expectNoAxeViolations } from '../../setup/axe';
import { fakeJobs, IMAGE_DATA_URI, makeJob } from '../../fixtures/jobs';

const imageService: ModelDescriptor = {
  id: 'svc-image',
  display_name: 'Lime Diffusion',
  endpoints: [
    {
      method: 'POST',
      path: '/generate',
      output: { type: 'image' },
      parameters: [
        { name: 'prompt', type: 'string', required: true, description: 'What to draw' },
        { name: 'width', type: 'integer', required: false, default: 1024, minimum: 64, maximum: 2048, step: 64 },
        { name: 'style', type: 'string', required: false, enum: ['photo', 'anime'], default: 'photo' },
        { name: 'enhance', type: 'boolean', required: false, default: false },
      ],
    },
    {
      method: 'POST',
      path: '/upscale',
      parameters: [{ name: 'image', type: 'file', required: true, description: 'Image to upscale' }],
    },
  ],
};

const chatService: ModelDescriptor = {
  id: 'svc-chat',
  display_name: 'Lime Chat',
  endpoints: [
    {
      method: 'POST',
      path: '/chat',
      output: { type: 'text', streaming: true },
      parameters: [
        { name: 'messages', type: 'array', required: true },
        { name: 'temperature', type: 'number', required: false, default: 0.7 },
      ],
    },
  ],
};

function setup(service: ModelDescriptor = imageService, options: Parameters<typeof fakeJobs>[0] = {}) {
  const jobs = fakeJobs(options);
  const navigate = vi.fn();
  const onJobChange = vi.fn();
  const user = userEvent.setup();
  const view = render(
    <PlatformProvider apiUrl="http://localhost:3999" authKey="anon-test-key" navigate={navigate}>
      <ServiceRunner serviceId={service.id} service={service} jobs={jobs.client} onJobChange={onJobChange} />
    </PlatformProvider>,
  );
  return { ...view, jobs, navigate, onJobChange, user };
}

const prompt = () => screen.getByRole('textbox', { name: /Prompt/ });
const runButton = () => screen.getByRole('button', { name: 'Run' });
const liveStatus = () => document.querySelector('[data-lime="runner-status"] [role="status"]')!;

async function startRun(ctx: ReturnType<typeof setup>, text = 'a lime on a desk') {
  await ctx.user.type(prompt(), text);
  await ctx.user.click(runButton());
  await waitFor(() => expect(ctx.jobs.isFollowed('job-1')).toBe(true));
}

describe('ServiceRunner: the form', () => {
  it('one labelled control per parameter, defaults filled, required marked, estimate shown', async () => {
    const { container } = setup();
    expect(prompt()).toHaveAttribute('aria-required', 'true');
    expect(prompt()).toHaveAccessibleDescription('What to draw');
    const width = screen.getByRole('spinbutton', { name: 'Width' });
    expect(width).toHaveValue(1024);
    expect(width).toHaveAttribute('min', '64');
    expect(width).toHaveAttribute('max', '2048');
    expect(width).toHaveAttribute('step', '64');
    expect(screen.getByRole('combobox', { name: 'Style' })).toHaveDisplayValue('photo');
    expect(screen.getByRole('switch', { name: 'Enhance' })).toHaveAttribute('aria-checked', 'false');
    // Median of 2, 3, 4 s at $0.0005/s x 92 credits/USD = 0.138 credits.
    await waitFor(() => expect(container.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('≈ 0.138 credits'));
    expect(container.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('≈ 3.0 s');
    expect(container.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('median of the last 3 runs');
    expect(liveStatus()).toHaveTextContent('Ready');
    await expectNoAxeViolations(container);
  });

  it('one measured run is "the last run", not "the last 1 runs" (issue 50, item 7)', async () => {
    const { container } = setup(imageService, { estimate: { price: 0.0005, seconds: [2] } });
    await waitFor(() => expect(container.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('(the last run)'));
    expect(container.querySelector('[data-lime="runner-estimate"]')).not.toHaveTextContent(/runs\)/);
  });

  it('a missing required field is marked and nothing is sent', async () => {
    const ctx = setup();
    await ctx.user.click(runButton());
    await waitFor(() => expect(prompt()).toHaveAttribute('aria-invalid', 'true'));
    expect(prompt()).toHaveAccessibleDescription('What to draw prompt is required');
    expect(liveStatus()).toHaveTextContent('Please correct the marked fields.');
    expect(ctx.jobs.created).toEqual([]);
    await expectNoAxeViolations(ctx.container);
  });

  it("a value out of range gets the shared validator's message", async () => {
    const ctx = setup();
    await ctx.user.type(prompt(), 'x');
    const width = screen.getByRole('spinbutton', { name: 'Width' });
    await ctx.user.clear(width);
    await ctx.user.type(width, '4096');
    await ctx.user.click(runButton());
    await waitFor(() => expect(width).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('width must be at most 2048')).toBeInTheDocument();
    expect(ctx.jobs.created).toEqual([]);
  });

  it('Ctrl+Enter runs from inside a field; the typed input is sent', async () => {
    const ctx = setup();
    await ctx.user.type(prompt(), 'a lime');
    await ctx.user.click(screen.getByRole('switch', { name: 'Enhance' }));
    await ctx.user.selectOptions(screen.getByRole('combobox', { name: 'Style' }), 'anime');
    await ctx.user.click(prompt());
    await ctx.user.keyboard('{Control>}{Enter}{/Control}');
    await waitFor(() => expect(ctx.jobs.created).toHaveLength(1));
    expect(ctx.jobs.created[0]).toEqual({
      service_id: 'svc-image',
      endpoint: '/generate',
      input: { prompt: 'a lime', width: 1024, style: 'anime', enhance: true },
    });
  });

  it('the endpoint picker switches the form', async () => {
    const ctx = setup();
    await ctx.user.selectOptions(screen.getByRole('combobox', { name: 'Endpoint' }), '/upscale');
    expect(screen.queryByRole('textbox', { name: /Prompt/ })).toBeNull();
    const file = screen.getByLabelText(/^Image/);
    expect(file).toHaveAttribute('type', 'file');
    await expectNoAxeViolations(ctx.container);
  });

  it('a file is uploaded, previewed and sent by URL', async () => {
    const ctx = setup();
    await ctx.user.selectOptions(screen.getByRole('combobox', { name: 'Endpoint' }), '/upscale');
    const bytes = Uint8Array.from(atob(IMAGE_DATA_URI.split(',')[1]!), (c) => c.charCodeAt(0));
    await ctx.user.upload(screen.getByLabelText(/^Image/), new File([bytes], 'lime.png', { type: 'image/png' }));
    await waitFor(() => expect(screen.getByRole('img', { name: 'Preview of lime.png' })).toBeInTheDocument());
    expect(screen.getByText(`lime.png (${bytes.length} B)`)).toBeInTheDocument();
    expect(ctx.jobs.uploads.map((f) => f.name)).toEqual(['lime.png']);
    await ctx.user.click(runButton());
    await waitFor(() => expect(ctx.jobs.created).toHaveLength(1));
    expect(ctx.jobs.created[0]!.input).toEqual({ image: IMAGE_DATA_URI });
  });

  it('keyboard only: Tab reaches every control in order and Space flips the switch', async () => {
    const ctx = setup();
    await ctx.user.tab();
    expect(screen.getByRole('combobox', { name: 'Endpoint' })).toHaveFocus();
    await ctx.user.tab();
    expect(prompt()).toHaveFocus();
    // The bounded number is a slider, then its input; then the select; then the switch.
    await ctx.user.tab();
    expect(screen.getAllByRole('slider')[0]).toHaveFocus();
    await ctx.user.tab();
    await ctx.user.tab();
    await ctx.user.tab();
    expect(screen.getByRole('switch', { name: 'Enhance' })).toHaveFocus();
    await ctx.user.keyboard(' ');
    expect(screen.getByRole('switch', { name: 'Enhance' })).toHaveAttribute('aria-checked', 'true');
    await ctx.user.tab();
    expect(runButton()).toHaveFocus();
  });
});

describe('ServiceRunner: a run', () => {
  it('shows progress, status and elapsed time, then the image, labelled as a demo output', async () => {
    const ctx = setup();
    await startRun(ctx);
    expect(liveStatus()).toHaveTextContent('Queued, position 1');
    ctx.jobs.push(makeJob({ status: 'PROCESSING', progress: 0.4, message: 'Denoising step 12 of 30' }));
    const bar = await screen.findByRole('progressbar', { name: 'Progress' });
    expect(bar).toHaveAttribute('aria-valuenow', '40');
    // The status word is announced; the runtime's step message is shown beside it, not announced.
    expect(liveStatus()).toHaveTextContent(/^Running$/);
    expect(screen.getByText('Denoising step 12 of 30')).not.toHaveAttribute('role');
    expect(screen.getByText(/^Elapsed: \d+ s$/)).toBeInTheDocument();
    expect(runButton()).toBeDisabled();
    await expectNoAxeViolations(ctx.container);

    ctx.jobs.push(
      makeJob({
        status: 'FINISHED',
        progress: 1,
        result: { url: IMAGE_DATA_URI, content_type: 'image/png', size: 68 },
        metrics: { queue_ms: 5, run_ms: 1500, gpu_seconds: 1.5, cost_credits: 0.07 },
        finished_at: new Date().toISOString(),
      }),
    );
    const image = await screen.findByRole('img', { name: 'Generated image' });
    expect(image).toHaveAttribute('src', IMAGE_DATA_URI);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(liveStatus()).toHaveTextContent('Finished');
    expect(screen.getByText(/Demo output from the local-demo runtime/)).toBeInTheDocument();
    expect(screen.getByText('Cost: 0.07 credits, 1.5 s')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Download (68 B)' })).toHaveAttribute('download');
    expect(ctx.onJobChange).toHaveBeenLastCalledWith(expect.objectContaining({ status: 'FINISHED' }));
    expect(runButton()).toBeEnabled();
    await expectNoAxeViolations(ctx.container);
  });

  it('streams chat text as it arrives', async () => {
    const ctx = setup(chatService);
    const message = screen.getByRole('textbox', { name: 'Message 1' });
    await ctx.user.type(message, 'Hi');
    await ctx.user.click(runButton());
    await waitFor(() => expect(ctx.jobs.isFollowed('job-1')).toBe(true));
    expect(ctx.jobs.created[0]!.input).toEqual({ messages: [{ role: 'user', content: 'Hi' }], temperature: 0.7 });
    ctx.jobs.push(makeJob({ status: 'PROCESSING', progress: 0.2, result: { text: 'Hel' } }));
    await waitFor(() => expect(document.querySelector('[data-streaming="true"]')).toHaveTextContent('Hel'));
    ctx.jobs.push(makeJob({ status: 'PROCESSING', progress: 0.6, result: { text: 'Hello the' } }));
    await waitFor(() => expect(document.querySelector('[data-streaming="true"]')).toHaveTextContent('Hello the'));
    ctx.jobs.push(makeJob({ status: 'FINISHED', progress: 1, result: { text: 'Hello there!' } }));
    await waitFor(() => expect(document.querySelector('[data-output="text"]')).toHaveTextContent('Hello there!'));
    expect(document.querySelector('[data-streaming="true"]')).toBeNull();
    await expectNoAxeViolations(ctx.container);
  });

  it('the chat editor adds and removes messages', async () => {
    const ctx = setup(chatService);
    await ctx.user.click(screen.getByRole('button', { name: 'Add message' }));
    expect(screen.getByRole('combobox', { name: 'Role 2' })).toHaveDisplayValue('assistant');
    await ctx.user.type(screen.getByRole('textbox', { name: 'Message 2' }), 'Earlier answer');
    await ctx.user.click(screen.getByRole('button', { name: 'Remove message 1' }));
    expect(screen.getByRole('textbox', { name: 'Message 1' })).toHaveValue('Earlier answer');
  });

  it('a container run shows its queue, cold start and run times and the lines the container wrote', async () => {
    const logs = [
      { at: '2026-11-24T09:00:00.000Z', stream: 'stdout' as const, text: 'greeting Ada' },
      { at: '2026-11-24T09:00:00.010Z', stream: 'stderr' as const, text: 'slow disk' },
    ];
    const ctx = setup(imageService, { logs });
    await startRun(ctx);
    ctx.jobs.push(
      makeJob({
        status: 'FINISHED',
        runtime: 'container',
        result: { text: 'Hello, Ada.' },
        metrics: { queue_ms: 12, cold_start_ms: 23, run_ms: 1500, gpu_seconds: 1.5, cost_credits: 0.07 },
        finished_at: new Date().toISOString(),
      }),
    );
    await waitFor(() =>
      expect(document.querySelector('[data-output="timings"]')).toHaveTextContent('Queue 12 ms · cold start 23 ms · run 1.5 s'),
    );
    // Read from GET /v1/jobs/{id}: the stream's envelopes do not carry them.
    const log = await screen.findByRole('log', { name: 'Container log of this run' });
    expect(log).toHaveTextContent('greeting Ada');
    expect(log).toHaveTextContent('ERR slow disk');
    expect(log).toHaveAttribute('tabindex', '0');
    await expectNoAxeViolations(ctx.container);
  });

  it('JSON, audio and video outputs get their own views', async () => {
    const ctx = setup();
    await startRun(ctx);
    ctx.jobs.push(
      makeJob({
        status: 'FINISHED',
        result: {
          audio: { url: '/v1/files/a.wav', content_type: 'audio/wav', size: 10 },
          video: { url: '/v1/files/v.webm', content_type: 'video/webm', size: 20 },
          mesh: { url: '/v1/files/m.glb', content_type: 'model/gltf-binary', size: 30 },
          labels: [{ label: 'lime', score: 0.98 }],
        },
      }),
    );
    await waitFor(() =>
      expect(document.querySelector('[data-output="audio"]')).toHaveAttribute('src', 'http://localhost:3999/v1/files/a.wav'),
    );
    expect(document.querySelector('[data-output="video"]')).toHaveAttribute('src', 'http://localhost:3999/v1/files/v.webm');
    expect(screen.getByRole('link', { name: 'Download (30 B)' })).toHaveAttribute('href', 'http://localhost:3999/v1/files/m.glb');
    expect(document.querySelector('[data-output="json"]')).toHaveTextContent('"label": "lime"');
  });

  it('a JSON result wraps its long values instead of scrolling sideways (issue 39, item 5)', async () => {
    const ctx = setup();
    await startRun(ctx);
    ctx.jobs.push(makeJob({ status: 'FINISHED', result: { caption: 'a lime on a table '.repeat(40), token: 'x'.repeat(300) } }));
    const json = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-output="json"]');
      expect(found).not.toBeNull();
      return found!;
    });
    expect(json.scrollWidth).toBeLessThanOrEqual(json.clientWidth + 1);
    expect(json).toHaveTextContent('"caption": "a lime on a table');
  });

  it('Cancel ends the run as cancelled', async () => {
    const ctx = setup();
    await startRun(ctx);
    ctx.jobs.push(makeJob({ status: 'PROCESSING', progress: 0.1 }));
    await ctx.user.click(await screen.findByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(liveStatus()).toHaveTextContent('Cancelled'));
    expect(ctx.jobs.cancelled).toEqual(['job-1']);
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
    expect(ctx.container.querySelector('[data-lime="service-runner"]')).toHaveAttribute('data-state', 'cancelled');
  });

  it('a failed job shows its error', async () => {
    const ctx = setup();
    await startRun(ctx);
    ctx.jobs.push(makeJob({ status: 'FAILED', error: { code: 'runtime_error', message: 'The model ran out of memory' } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The run failed: The model ran out of memory');
    await expectNoAxeViolations(ctx.container);
  });
});

describe('ServiceRunner: errors by code', () => {
  it('402 links to billing through navigate()', async () => {
    const ctx = setup();
    ctx.jobs.failNextCreate(402, 'Not enough credits: this run needs about 0.14 credits.');
    await ctx.user.type(prompt(), 'x');
    await ctx.user.click(runButton());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not enough credits: this run needs about 0.14 credits.');
    await ctx.user.click(within(alert).getByRole('link', { name: 'Buy credits' }));
    expect(ctx.navigate).toHaveBeenCalledWith('/account/billing');
    await expectNoAxeViolations(ctx.container);
  });

  it('422 marks the fields the server rejected', async () => {
    const ctx = setup();
    ctx.jobs.failNextCreate(422, 'style must be one of: photo, anime', [
      { name: 'style', rule: 'enum', message: 'style must be one of: photo, anime' },
    ]);
    await ctx.user.type(prompt(), 'x');
    await ctx.user.click(runButton());
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Style' })).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByRole('combobox', { name: 'Style' })).toHaveAccessibleDescription('style must be one of: photo, anime');
  });

  it('401 opens the sign-in overlay; closing it returns to the form', async () => {
    const ctx = setup();
    ctx.jobs.failNextCreate(401, 'Tokens not available. Login first.');
    await ctx.user.type(prompt(), 'x');
    await ctx.user.click(runButton());
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { level: 2 })).toBeInTheDocument();
    // Said once, in the status line (issue 50, item 7: it was also repeated in a box under it).
    expect(screen.getAllByText('Please sign in to run this service. Your run starts after you sign in.')).toHaveLength(1);
    expect(liveStatus()).toHaveTextContent('Please sign in to run this service.');
    await ctx.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(liveStatus()).toHaveTextContent('Ready');
    expect(ctx.jobs.created).toHaveLength(1);
  });
});

describe('ServiceRunner: recent runs', () => {
  const past: Job[] = [
    makeJob({
      job_id: 'old-1',
      status: 'FINISHED',
      input: { prompt: 'a green lime', width: 512 },
      result: { url: IMAGE_DATA_URI, content_type: 'image/png', size: 68 },
    }),
    makeJob({ job_id: 'old-2', status: 'CANCELLED', input: { prompt: 'a yellow lemon' } }),
  ];

  it('lists them; Open shows a past run with its input', async () => {
    const ctx = setup(imageService, { recent: past });
    const list = await screen.findByRole('region', { name: 'Your recent runs' });
    // The region shows at once; its runs arrive with the jobs client's answer.
    expect((await within(list).findAllByRole('listitem')).map((li) => li.getAttribute('data-job-id'))).toEqual(['old-1', 'old-2']);
    await ctx.user.click(within(list).getByRole('button', { name: 'Open: a green lime' }));
    expect(prompt()).toHaveValue('a green lime');
    expect(screen.getByRole('spinbutton', { name: 'Width' })).toHaveValue(512);
    expect(await screen.findByRole('img', { name: 'Generated image' })).toBeInTheDocument();
    await expectNoAxeViolations(ctx.container);
  });

  it('a run of a file is labelled by its file name, one of a data: URL by the service; never by its JSON', async () => {
    const files: Job[] = [
      makeJob({ job_id: 'f-1', endpoint: '/upscale', status: 'FINISHED', input: { image: 'http://localhost:3999/media/files/desk.png' } }),
      makeJob({ job_id: 'f-2', endpoint: '/upscale', status: 'FINISHED', input: { image: IMAGE_DATA_URI } }),
    ];
    setup(imageService, { recent: files });
    const list = await screen.findByRole('region', { name: 'Your recent runs' });
    const items = await within(list).findAllByRole('listitem');
    expect(items.map((li) => li.querySelector('[title]')?.textContent)).toEqual(['desk.png', 'Lime Diffusion']);
    expect(list.textContent).not.toContain('{');
  });

  it('Run again submits the same input', async () => {
    const ctx = setup(imageService, { recent: past });
    const list = await screen.findByRole('region', { name: 'Your recent runs' });
    await ctx.user.click(within(list).getByRole('button', { name: 'Run again: a yellow lemon' }));
    await waitFor(() => expect(ctx.jobs.created).toHaveLength(1));
    expect(ctx.jobs.created[0]).toEqual({ service_id: 'svc-image', endpoint: '/generate', input: { prompt: 'a yellow lemon' } });
    expect(prompt()).toHaveValue('a yellow lemon');
  });

  it('an anonymous visitor sees no estimate and no runs list', async () => {
    setup(imageService, { estimate: null });
    await waitFor(() => expect(document.querySelector('[data-lime="runner-estimate"]')).toHaveTextContent('No estimate yet'));
  });
});

describe('ServiceRunner: strings', () => {
  it('every text comes from the strings table (overridable per embed)', async () => {
    const jobs = fakeJobs();
    render(
      <PlatformProvider
        apiUrl="http://localhost:3999"
        authKey="anon-test-key"
        strings={{ runner: { run: 'Ausführen', title: 'Spielwiese' } }}
      >
        <ServiceRunner serviceId="svc-image" service={imageService} jobs={jobs.client} />
      </PlatformProvider>,
    );
    expect(screen.getByRole('button', { name: 'Ausführen' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Spielwiese' })).toBeInTheDocument();
  });
});
