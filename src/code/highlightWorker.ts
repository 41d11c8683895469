import { createCodeHighlighter, type CodeHighlighter } from './highlighter';
import { serializeError, type HighlightRequest, type LoadedState, type WorkerMessage } from './workerProtocol';

// The code highlighter's Web Worker (docs/architecture.md, "Code highlighting off the main
// thread"): shiki, its grammars and themes load and tokenise here, so a highlight never blocks
// the page. A module worker from the page's own origin, no blob: URL and no eval, so it runs
// under `script-src 'self'` (and `worker-src 'self'`).

// The worker's global scope, typed by hand: the project compiles against the DOM library, whose
// declarations clash with the WebWorker library's.
const scope = self as unknown as {
  postMessage(message: WorkerMessage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<HighlightRequest>) => void): void;
};
const post = (message: WorkerMessage) => scope.postMessage(message);

const loaded = (highlighter: CodeHighlighter): LoadedState => ({
  languages: highlighter.loadedLanguages(),
  themes: highlighter.loadedThemes(),
});

const ready = createCodeHighlighter();
ready.then(
  () => post({ type: 'ready' }),
  (error: unknown) => post({ type: 'failed', error: serializeError(error) }),
);

scope.addEventListener('message', (event: MessageEvent<HighlightRequest>) => {
  const { id, code, language, theme } = event.data;
  void ready.then(async (highlighter) => {
    try {
      const result = await highlighter.highlight(code, { language, theme, onTokenising: () => post({ type: 'tokenising', id }) });
      post({ type: 'result', id, result, ...loaded(highlighter) });
    } catch (error) {
      post({ type: 'error', id, error: serializeError(error), ...loaded(highlighter) });
    }
  });
});
