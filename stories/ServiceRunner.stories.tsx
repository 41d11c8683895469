import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor } from 'storybook/test';
import type { Job, ModelDescriptor } from '../src/api';
import { ServiceRunner } from '../src/components/ServiceRunner';
import { PlatformProvider } from '../src/config';
import { fakeJobs, IMAGE_DATA_URI, makeJob, type FakeJobsOptions } from '../test/fixtures/jobs';

// Every state of the runner (docs/jobs.md): idle, invalid fields, running with progress,
// streaming text, each output type, failed, cancelled, 401 (sign-in overlay), 402 (billing).
// The jobs client is an in-memory script; each story's play function presses Run.

const imageService: ModelDescriptor = {
  id: 'svc-image',
  display_name: 'Lime Diffusion XL',
  endpoints: [
    {
      method: 'POST',
      path: '/generate',
      description: 'Generates images from a prompt',
      output: { type: 'image' },
      parameters: [
        { name: 'prompt', type: 'string', required: true, description: 'What to draw' },
        { name: 'negative_prompt', type: 'string', required: false, default: '', description: 'What to avoid' },
        { name: 'width', type: 'integer', required: false, default: 1024, minimum: 256, maximum: 2048, step: 64 },
        { name: 'guidance_scale', type: 'number', required: false, default: 7, minimum: 0, maximum: 20 },
        { name: 'scheduler', type: 'string', required: false, enum: ['euler', 'ddim', 'dpm++'], default: 'euler' },
        { name: 'safety_checker', type: 'boolean', required: false, default: true },
      ],
    },
    {
      method: 'POST',
      path: '/upscale',
      description: 'Upscales an image',
      output: { type: 'image' },
      parameters: [{ name: 'image', type: 'file', required: true, description: 'Image to upscale' }],
    },
  ],
};

const chatService: ModelDescriptor = {
  id: 'svc-chat',
  display_name: 'Lime Chat 8B',
  endpoints: [
    {
      method: 'POST',
      path: '/chat',
      output: { type: 'text', streaming: true },
      parameters: [
        { name: 'messages', type: 'array', required: true, description: 'Conversation as [{role, content}]' },
        { name: 'max_tokens', type: 'integer', required: false, default: 512 },
        { name: 'temperature', type: 'number', required: false, default: 0.7 },
      ],
    },
  ],
};

/** A short sine beep as a WAV data URI, so the audio player has something to play. */
function beepWav(): string {
  const rate = 8000;
  const samples = rate / 2;
  const buffer = new DataView(new ArrayBuffer(44 + samples));
  const text = (offset: number, s: string) => [...s].forEach((c, i) => buffer.setUint8(offset + i, c.charCodeAt(0)));
  text(0, 'RIFF');
  buffer.setUint32(4, 36 + samples, true);
  text(8, 'WAVEfmt ');
  buffer.setUint32(16, 16, true);
  buffer.setUint16(20, 1, true);
  buffer.setUint16(22, 1, true);
  buffer.setUint32(24, rate, true);
  buffer.setUint32(28, rate, true);
  buffer.setUint16(32, 1, true);
  buffer.setUint16(34, 8, true);
  text(36, 'data');
  buffer.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) buffer.setUint8(44 + i, 128 + Math.round(60 * Math.sin((2 * Math.PI * 440 * i) / rate)));
  let binary = '';
  new Uint8Array(buffer.buffer).forEach((b) => (binary += String.fromCharCode(b)));
  return `data:audio/wav;base64,${btoa(binary)}`;
}

const finished = (result: unknown): Partial<Job> => ({
  status: 'FINISHED',
  progress: 1,
  result,
  metrics: { queue_ms: 40, run_ms: 2300, gpu_seconds: 2.3, cost_credits: 0.11 },
  finished_at: new Date().toISOString(),
});

const past: Job[] = [
  makeJob({
    job_id: 'past-1',
    status: 'FINISHED',
    input: { prompt: 'a lime on a desk, studio light' },
    ...finished({ url: IMAGE_DATA_URI, content_type: 'image/png', size: 68 }),
  }),
  makeJob({ job_id: 'past-2', status: 'CANCELLED', input: { prompt: 'a neon lemon city at night' } }),
];

interface StoryArgs {
  service: ModelDescriptor;
  jobs: FakeJobsOptions;
  prompt?: string;
}

function Runner({ service, jobs }: StoryArgs) {
  const client = fakeJobs(jobs).client;
  return (
    <PlatformProvider authKey="storybook" navigate={(path) => console.info('[navigate]', path)}>
      <ServiceRunner serviceId={service.id} service={service} jobs={client} onJobChange={(job) => console.info('[job]', job.status)} />
    </PlatformProvider>
  );
}

const meta = {
  title: 'Run/ServiceRunner',
  component: Runner,
  parameters: { layout: 'padded' },
  args: { service: imageService, jobs: { recent: past } },
} satisfies Meta<typeof Runner>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Types the prompt (when the story has one) and presses Run. */
const pressRun: Story['play'] = async ({ canvas, userEvent, args }) => {
  if (args.prompt) await userEvent.type(await canvas.findByRole('textbox', { name: /Prompt/ }), args.prompt);
  if (args.service === chatService)
    await userEvent.type(await canvas.findByRole('textbox', { name: 'Message 1' }), 'Write a haiku about limes.');
  await userEvent.click(canvas.getByRole('button', { name: 'Run' }));
};

/** The form with defaults, the estimate from recent runs, and the recent runs. */
export const Idle: Story = {};

/** Run without the required prompt: the field is marked and nothing is sent. */
export const InvalidFields: Story = {
  play: async (context) => {
    await pressRun(context);
    await waitFor(() => expect(context.canvas.getByRole('textbox', { name: /Prompt/ })).toHaveAttribute('aria-invalid', 'true'));
  },
};

/** Queued, then running at 45 % with the runtime's message. */
export const RunningWithProgress: Story = {
  args: {
    prompt: 'a lime on a desk',
    jobs: {
      script: [
        { status: 'PROCESSING', progress: 0.2, message: 'Denoising step 6 of 30' },
        { status: 'PROCESSING', progress: 0.45, message: 'Denoising step 14 of 30' },
      ],
    },
  },
  play: pressRun,
};

/** Chat tokens appear as they arrive, then the final answer. */
export const StreamingText: Story = {
  args: {
    service: chatService,
    jobs: {
      everyMs: 350,
      script: [
        { status: 'PROCESSING', progress: 0.1, result: { text: 'Green' } },
        { status: 'PROCESSING', progress: 0.3, result: { text: 'Green zest in the sun,' } },
        { status: 'PROCESSING', progress: 0.6, result: { text: 'Green zest in the sun,\nsour drops on a summer tongue' } },
        finished({ text: 'Green zest in the sun,\nsour drops on a summer tongue,\nlime light, day is done.' }),
      ],
    },
  },
  play: pressRun,
};

export const ImageOutput: Story = {
  args: { prompt: 'a lime', jobs: { script: [finished({ url: IMAGE_DATA_URI, content_type: 'image/png', size: 68 })] } },
  play: pressRun,
};

export const AudioOutput: Story = {
  args: { prompt: 'a lime', jobs: { script: [finished({ url: beepWav(), content_type: 'audio/wav', size: 4044 })] } },
  play: pressRun,
};

export const VideoOutput: Story = {
  args: { prompt: 'a lime', jobs: { script: [finished({ url: '/v1/files/clip.webm', content_type: 'video/webm', size: 182_000 })] } },
  play: pressRun,
};

export const JsonOutput: Story = {
  args: {
    prompt: 'a lime',
    jobs: {
      script: [
        finished({
          labels: [
            { label: 'lime', score: 0.97 },
            { label: 'lemon', score: 0.02 },
          ],
          embedding_dim: 384,
        }),
      ],
    },
  },
  play: pressRun,
};

/** A mesh (or any other file) is offered as a download. */
export const FileOutput: Story = {
  args: { prompt: 'a lime', jobs: { script: [finished({ url: '/v1/files/lime.glb', content_type: 'model/gltf-binary', size: 48_213 })] } },
  play: pressRun,
};

export const Failed: Story = {
  args: {
    prompt: 'a lime',
    jobs: {
      script: [
        { status: 'PROCESSING', progress: 0.3 },
        { status: 'FAILED', error: { code: 'runtime_error', message: 'The model ran out of memory' } },
      ],
    },
  },
  play: pressRun,
};

export const Cancelled: Story = {
  args: {
    prompt: 'a lime',
    jobs: {
      script: [
        { status: 'PROCESSING', progress: 0.3 },
        { status: 'CANCELLED', progress: 0.3 },
      ],
    },
  },
  play: pressRun,
};

/** 401: the sign-in overlay opens; the run starts after sign-in. */
export const SignInRequired: Story = {
  args: { prompt: 'a lime', jobs: { createFailure: { status: 401, error: 'Tokens not available. Login first.' } } },
  play: pressRun,
};

/** 402: the balance is too low; the link goes to billing through navigate(). */
export const NotEnoughCredits: Story = {
  args: {
    prompt: 'a lime',
    jobs: { createFailure: { status: 402, error: 'Not enough credits: this run needs about 0.14 credits, your balance is 0.' } },
  },
  play: pressRun,
};

/** 422 from the server: the rejected field is marked. */
export const ServerRejectedField: Story = {
  args: {
    prompt: 'a lime',
    jobs: {
      createFailure: {
        status: 422,
        error: 'width must be a multiple of 64',
        fieldErrors: [{ name: 'width', rule: 'step', message: 'width must be a multiple of 64' }],
      },
    },
  },
  play: pressRun,
};

/** The upscale endpoint: the endpoint picker and the file drop zone. */
export const FileInput: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.selectOptions(canvas.getByRole('combobox', { name: 'Endpoint' }), '/upscale');
  },
};
