import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef, useState } from 'react';
import { CodeViewer } from '../src/components/CodeViewer';
import { CODE_LANGUAGES, CODE_THEMES } from '../src/code/constants';
import { type CodeHighlighter } from '../src/code/highlighter';

// Every state of product-rules §4 "Code display", both variants of §9, and each allowed theme of §5.

const JSON_SAMPLE = `{
  "model": "limelight/flux-schnell",
  "prompt": "a lime-green aurora over a purple sky",
  "steps": 4,
  "seed": null,
  "public": true
}`;

const PYTHON_SAMPLE = `from limelight import Limelight

client = Limelight(api_key="lime_...")
job = client.run("limelight/flux-schnell", prompt="a lime-green aurora over a purple sky")
image = job.result()  # waits for the GPU
image.save("aurora.png")
`;

const TS_SAMPLE = `import { Limelight } from '@limelight/sdk';

const client = new Limelight({ apiKey: process.env.LIME_KEY! });
export async function run(prompt: string): Promise<Blob> {
  const job = await client.run('limelight/flux-schnell', { prompt, steps: 4 });
  return job.result();
}
`;

const LONG_SAMPLE = Array.from(
  { length: 60 },
  (_, i) => `  "gpu_${i}": { "vram_gb": ${16 + (i % 8) * 8}, "price_per_s": ${(0.00016 * (1 + i / 10)).toFixed(6)} },`,
).join('\n');

/** Never answers: the loading state stays on screen (time limit switched off). */
const pending = () => new Promise<CodeHighlighter>(() => {});
/** Fails at once: the error state with the raw code. */
const failing = async (): Promise<CodeHighlighter> => {
  throw new Error('The grammar chunk could not be loaded.');
};

const meta = {
  title: 'Code/CodeViewer',
  component: CodeViewer,
  args: { code: JSON_SAMPLE },
  argTypes: {
    language: {
      control: 'select',
      options: [...CODE_LANGUAGES],
    },
    theme: { control: 'select', options: [...CODE_THEMES] },
    variant: { control: 'inline-radio', options: ['default', 'sample'] },
  },
  parameters: { layout: 'padded' },
} satisfies Meta<typeof CodeViewer>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Highlighted (product-rules §4), defaults json and dark-plus (product-rules §5). */
export const Highlighted: Story = {};

/** 'Highlighting code...' while the highlighter loads (product-rules §4). */
export const Loading: Story = {
  args: { code: PYTHON_SAMPLE, language: 'python', highlighter: pending, timeLimitMs: Number.POSITIVE_INFINITY },
};

/** 'Failed to highlight code' with the raw code (product-rules §4, §8). */
export const ErrorState: Story = { args: { code: PYTHON_SAMPLE, language: 'python', highlighter: failing } };

/** A language outside product-rules §5's list is refused: error state, raw code, the reason in onError. */
export const UnsupportedLanguage: Story = { args: { code: 'fn main() { println!("hi"); }', language: 'rust' } };

/** The highlighter misses the 500 ms limit (product-rules §9): the raw code is shown. */
export const TimeLimit: Story = { args: { code: TS_SAMPLE, language: 'typescript', highlighter: pending } };

/** 'No code to display' (product-rules §4); whitespace-only code is not highlighted (product-rules §5). */
export const Empty: Story = { args: { code: '   \n  ' } };

/** Sample block (product-rules §9): 14px, 12px on medium-and-down, max height 300px. */
export const SampleVariant: Story = { args: { code: PYTHON_SAMPLE, language: 'python', variant: 'sample' } };

/** Default max height 400px scrolls (product-rules §9). */
export const LongCode: Story = { args: { code: `{\n${LONG_SAMPLE}\n  "end": true\n}` } };

/** 'Copied!' for 2 seconds (product-rules §4): the story clicks the button once rendered. */
export const Copied: Story = {
  args: { code: JSON_SAMPLE },
  render: (args) => <ClickCopy {...args} />,
};
function ClickCopy(args: React.ComponentProps<typeof CodeViewer>) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const timer = setTimeout(() => ref.current?.querySelector<HTMLButtonElement>('button')?.click(), 300);
    return () => clearTimeout(timer);
  }, []);
  return (
    <div ref={ref}>
      <CodeViewer {...args} />
    </div>
  );
}

/** Tooltip portalled into a host-given container instead of rendering inline. */
export const TooltipInPortalContainer: Story = {
  render: (args) => <WithPortal {...args} />,
};
function WithPortal(args: React.ComponentProps<typeof CodeViewer>) {
  const [container, setContainer] = useState<HTMLDivElement | null>(null);
  return (
    <>
      <CodeViewer {...args} portalContainer={container} />
      <div ref={setContainer} />
    </>
  );
}

/** The eight themes of product-rules §5, one block each. */
export const AllThemes: Story = {
  render: () => (
    <div style={{ display: 'grid', gap: 16 }}>
      {CODE_THEMES.map((theme) => (
        <CodeViewer key={theme} code={TS_SAMPLE} language="typescript" theme={theme} label={`TypeScript in ${theme}`} />
      ))}
    </div>
  ),
};

/** One block per allowed language (product-rules §5). */
export const Languages: Story = {
  render: () => (
    <div style={{ display: 'grid', gap: 16 }}>
      <CodeViewer code={JSON_SAMPLE} language="json" />
      <CodeViewer code={TS_SAMPLE} language="typescript" />
      <CodeViewer code={PYTHON_SAMPLE} language="python" />
      <CodeViewer code={'<template>\n  <p :class="{ on }">{{ msg }}</p>\n</template>'} language="vue" />
      <CodeViewer code={'model: flux-schnell\nsteps: 4\npublic: true'} language="yaml" />
      <CodeViewer code={'SELECT id, n_usages FROM models WHERE n_usages > 1000 ORDER BY 2 DESC;'} language="sql" />
      <CodeViewer code={'curl -H "Authorization: Bearer $LIME_KEY" https://api.example/v1/run'} language="bash" />
      <CodeViewer code={'# Title\n\nSome *markdown* with `code`.'} language="markdown" />
      <CodeViewer code={'plain text stays plain'} language="text" />
    </div>
  ),
};
