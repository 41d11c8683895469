// Code highlighting off the main thread (docs/architecture.md, "Code highlighting off the main
// thread"): the shared highlighter is a Web Worker, the code viewer's tokens are the worker's
// answer, and a worker that cannot start is reported so the page can highlight itself instead.
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeViewer } from '@limelight/widgets/code-viewer';
import { type CodeHighlighter, type HighlightedCode } from '../../../src/code/highlighter';
import { getCodeHighlighter, resetCodeHighlighter } from '../../../src/code/shared';
import { createWorkerCodeHighlighter, startHighlightWorker } from '../../../src/code/workerHighlighter';
import type { WorkerMessage } from '../../../src/code/workerProtocol';

const PYTHON = 'import limelight\n\nprint(limelight.run("flux", prompt="a lime"))  # go';

/** Starts the real worker and records every message it sends to the page. */
function recordingWorker() {
  const workers: Worker[] = [];
  const messages: WorkerMessage[] = [];
  const createWorker = () => {
    const worker = startHighlightWorker();
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => messages.push(event.data));
    workers.push(worker);
    return worker;
  };
  return { workers, messages, createWorker };
}

const textOf = (result: HighlightedCode) => result.lines.map((line) => line.map((t) => t.content).join('')).join('\n');

let highlighter: CodeHighlighter | undefined;
afterEach(() => {
  highlighter?.dispose();
  highlighter = undefined;
  resetCodeHighlighter();
});

describe('highlighter worker', () => {
  it('the page-wide highlighter runs in a Web Worker', async () => {
    resetCodeHighlighter();
    const shared = await getCodeHighlighter();
    expect(shared.runsIn).toBe('worker');
    const result = await shared.highlight('{"a": 1}');
    expect(textOf(result)).toBe('{"a": 1}');
  });

  it("the code viewer's highlighted tokens are the worker's answer", async () => {
    const recording = recordingWorker();
    highlighter = await createWorkerCodeHighlighter({ createWorker: recording.createWorker });
    expect(recording.workers).toHaveLength(1);
    expect(recording.messages).toEqual([{ type: 'ready' }]);

    const ready = highlighter;
    render(<CodeViewer code={PYTHON} language="python" highlighter={async () => ready} timeLimitMs={10_000} />);
    const region = screen.getByRole('group', { name: 'Code sample (python)' });
    const root = region.closest('[data-lime="code-viewer"]')!;
    await waitFor(() => expect(root).toHaveAttribute('data-state', 'highlighted'), { timeout: 10_000 });

    const answers = recording.messages.filter((m): m is Extract<WorkerMessage, { type: 'result' }> => m.type === 'result');
    expect(answers).toHaveLength(1);
    const answer = answers[0]!;
    expect(answer.result.language).toBe('python');
    expect(answer.languages).toContain('python');
    // What the viewer shows, token by token, is what the worker sent.
    const shown = [...region.querySelectorAll('code > span')].map((line) => [...line.children].map((token) => token.textContent));
    expect(shown).toEqual(answer.result.lines.map((line) => line.map((token) => token.content)));
    expect(textOf(answer.result)).toBe(PYTHON);
    // The page keeps the answer: the same block shown again needs no second round trip.
    expect(highlighter.highlightSync(PYTHON, { language: 'python' })).toBe(answer.result);
  });

  it('refuses a language outside product-rules §5 without asking the worker', async () => {
    const recording = recordingWorker();
    highlighter = await createWorkerCodeHighlighter({ createWorker: recording.createWorker });
    await expect(highlighter.highlight('fn main() {}', { language: 'rust' })).rejects.toMatchObject({ code: 'unsupported-language' });
    expect(recording.messages).toEqual([{ type: 'ready' }]);
  });

  it('a worker that cannot start rejects with a "failed" error (the shared highlighter then highlights in the page)', async () => {
    const missing = () => new Worker(new URL('./no-such-worker.js', import.meta.url), { type: 'module' });
    await expect(createWorkerCodeHighlighter({ createWorker: missing })).rejects.toMatchObject({
      name: 'CodeHighlightError',
      code: 'failed',
    });
    const refused = () => {
      throw new DOMException('Workers are not allowed here', 'SecurityError');
    };
    await expect(createWorkerCodeHighlighter({ createWorker: refused })).rejects.toMatchObject({ code: 'failed' });
  });
});
