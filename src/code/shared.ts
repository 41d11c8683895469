import type { CodeHighlighter, HighlightOptions, HighlightedCode } from './highlighter';
import { resolveCodeLanguage, resolveCodeTheme } from './resolve';
import { createWorkerCodeHighlighter } from './workerHighlighter';

// The page-wide highlighter every code block shares (docs/architecture.md, "Code highlighting
// off the main thread").

let shared: Promise<CodeHighlighter> | undefined;
let sharedReady: CodeHighlighter | undefined;

/**
 * A highlighter in a Web Worker where the browser has (module) workers; otherwise, or when the
 * worker cannot start (e.g. a Content-Security-Policy whose `worker-src` refuses the page's own
 * origin), shiki in the page itself, loaded on demand: the same results, without the
 * main-thread guarantee.
 */
async function createSharedHighlighter(): Promise<CodeHighlighter> {
  if (typeof Worker !== 'undefined') {
    try {
      return await createWorkerCodeHighlighter();
    } catch (error) {
      if (process.env.NODE_ENV !== 'production') {
        console.warn(`[limelight] ${error instanceof Error ? error.message : String(error)} Highlighting in the page instead.`);
      }
    }
  }
  const { createCodeHighlighter } = await import('./highlighter');
  return createCodeHighlighter();
}

/**
 * The page-wide highlighter: created on first call, then shared by every code block. A failed
 * creation is forgotten so the next call tries again.
 */
export function getCodeHighlighter(): Promise<CodeHighlighter> {
  shared ??= createSharedHighlighter().then(
    (highlighter) => (sharedReady = highlighter),
    (error: unknown) => {
      shared = undefined;
      throw error;
    },
  );
  return shared;
}

/** The shared highlighter if it already exists, without creating it. */
export function peekCodeHighlighter(): CodeHighlighter | undefined {
  return sharedReady;
}

/** Drops the shared highlighter (tests, or a host freeing memory); the next call creates a new one. */
export function resetCodeHighlighter(): void {
  sharedReady?.dispose();
  sharedReady = undefined;
  shared = undefined;
}

/** Highlights with the shared highlighter. Refuses a language or theme outside product-rules §5 before loading anything. */
export async function highlightCode(code: string, options: HighlightOptions = {}): Promise<HighlightedCode> {
  const language = resolveCodeLanguage(options.language);
  const theme = resolveCodeTheme(options.theme);
  const highlighter = await getCodeHighlighter();
  return highlighter.highlight(code, { language, theme });
}
