import type { CodeLanguage, CodeTheme } from './constants';
import { CodeHighlightError } from './errors';
import type { CodeHighlighter, HighlightedCode } from './highlighter';
import { resolveCodeLanguage, resolveCodeTheme } from './resolve';
import { deserializeError, type HighlightRequest, type WorkerMessage } from './workerProtocol';

// The page's side of the highlighter worker (docs/architecture.md, "Code highlighting off the
// main thread"). Same CodeHighlighter interface as the in-thread one; every highlight is a
// message to the worker and its answer, so no shiki code runs on the page.

/** How many highlighted blocks `highlightSync` remembers (a page shows a handful). */
const SYNC_CACHE_SIZE = 64;

/**
 * The worker, resolved against this module's own URL, so the site (Vite), the npm package's
 * users' bundlers and the script-tag bundle (rollup, scripts/rollup/cdn.mjs) all find the file
 * beside the code that starts it. The literal `new Worker(new URL(...), { type: 'module' })` is
 * the form bundlers recognise.
 */
export function startHighlightWorker(): Worker {
  return new Worker(new URL('./highlightWorker.ts', import.meta.url), { type: 'module', name: 'lime-code-highlighter' });
}

export interface WorkerCodeHighlighterOptions {
  /** Starts the worker. @default startHighlightWorker */
  createWorker?: () => Worker;
}

const cacheKey = (code: string, language: CodeLanguage, theme: CodeTheme) => `${language}\u0000${theme}\u0000${code}`;

/**
 * Starts the highlighter worker and resolves once its shiki core is ready; rejects with a
 * `failed` CodeHighlightError when the worker cannot start (no module workers, a policy that
 * forbids it, a missing file), so the caller can fall back to highlighting in the page.
 */
export function createWorkerCodeHighlighter({
  createWorker = startHighlightWorker,
}: WorkerCodeHighlighterOptions = {}): Promise<CodeHighlighter> {
  return new Promise<CodeHighlighter>((resolveReady, rejectReady) => {
    let worker: Worker;
    try {
      worker = createWorker();
    } catch (error) {
      rejectReady(new CodeHighlightError('failed', 'Could not start the code highlighter worker.', { cause: error }));
      return;
    }
    let started = false;
    /** Set when the worker died after starting: later highlights fail at once instead of waiting. */
    let broken: CodeHighlightError | null = null;
    let nextId = 0;
    const pending = new Map<
      number,
      { resolve: (result: HighlightedCode) => void; reject: (error: CodeHighlightError) => void; tokenising?: () => void }
    >();
    const recent = new Map<string, HighlightedCode>();
    let languages: CodeLanguage[] = ['text'];
    let themes: CodeTheme[] = [];

    const failAll = (error: CodeHighlightError) => {
      for (const request of pending.values()) request.reject(error);
      pending.clear();
    };

    const remember = (result: HighlightedCode, code: string) => {
      const key = cacheKey(code, result.language, result.theme);
      recent.delete(key);
      recent.set(key, result);
      if (recent.size > SYNC_CACHE_SIZE) recent.delete(recent.keys().next().value!);
    };

    const highlighter: CodeHighlighter = {
      runsIn: 'worker',
      highlight(code, options = {}) {
        let language: CodeLanguage;
        let theme: CodeTheme;
        try {
          language = resolveCodeLanguage(options.language);
          theme = resolveCodeTheme(options.theme);
        } catch (error) {
          return Promise.reject(error);
        }
        if (broken) return Promise.reject(broken);
        const id = ++nextId;
        return new Promise<HighlightedCode>((resolve, reject) => {
          pending.set(id, {
            resolve: (result) => {
              remember(result, code);
              resolve(result);
            },
            reject,
            tokenising: options.onTokenising,
          });
          const request: HighlightRequest = { id, code, language, theme };
          worker.postMessage(request);
        });
      },
      highlightSync(code, options = {}) {
        const key = cacheKey(code, resolveCodeLanguage(options.language), resolveCodeTheme(options.theme));
        return recent.get(key) ?? null;
      },
      loadedLanguages: () => [...languages],
      loadedThemes: () => [...themes],
      dispose() {
        worker.terminate();
        failAll(new CodeHighlightError('failed', 'The code highlighter was disposed.'));
        recent.clear();
      },
    };

    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => {
      const message = event.data;
      switch (message.type) {
        case 'ready':
          started = true;
          resolveReady(highlighter);
          return;
        case 'failed':
          worker.terminate();
          rejectReady(deserializeError(message.error));
          return;
        case 'tokenising':
          pending.get(message.id)?.tokenising?.();
          return;
        case 'result':
        case 'error': {
          languages = message.languages;
          themes = message.themes;
          const request = pending.get(message.id);
          pending.delete(message.id);
          if (message.type === 'result') request?.resolve(message.result);
          else request?.reject(deserializeError(message.error));
          return;
        }
      }
    });
    // Before `ready`: the worker could not start (its file is missing, a CSP forbids it, a
    // browser without module workers fails on its first import). After: a crash inside it.
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      const error = new CodeHighlightError('failed', `The code highlighter worker failed: ${event.message || 'it could not be loaded'}.`);
      worker.terminate();
      if (!started) rejectReady(error);
      else {
        broken = error;
        failAll(error);
      }
    });
    worker.addEventListener('messageerror', () =>
      failAll(new CodeHighlightError('failed', 'A code highlighter answer could not be read.')),
    );
  });
}
