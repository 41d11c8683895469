import type { CodeLanguage, CodeTheme } from './constants';
import { CodeHighlightError, isCodeHighlightError, type CodeHighlightErrorCode } from './errors';
import type { HighlightedCode } from './highlighter';

// The messages between the page and the highlighter worker (highlightWorker.ts). Plain data
// only: they cross the thread boundary by structured clone.

/** Page -> worker: highlight this code. Language and theme are already resolved by the page. */
export interface HighlightRequest {
  id: number;
  code: string;
  language: CodeLanguage;
  theme: CodeTheme;
}

/** What the worker has loaded so far, sent with every answer. */
export interface LoadedState {
  languages: CodeLanguage[];
  themes: CodeTheme[];
}

/** An error as data: CodeHighlightError's code and message (the cause stays in the worker). */
export interface SerializedError {
  code: CodeHighlightErrorCode;
  message: string;
}

/**
 * Worker -> page. `ready` once the worker's shiki core exists; per request, `tokenising` when its
 * grammar and theme are in, then its answer.
 */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; error: SerializedError }
  | { type: 'tokenising'; id: number }
  | ({ type: 'result'; id: number; result: HighlightedCode } & LoadedState)
  | ({ type: 'error'; id: number; error: SerializedError } & LoadedState);

export function serializeError(error: unknown): SerializedError {
  if (isCodeHighlightError(error)) return { code: error.code, message: error.message };
  return { code: 'failed', message: `Could not highlight code: ${error instanceof Error ? error.message : String(error)}` };
}

export function deserializeError(error: SerializedError): CodeHighlightError {
  return new CodeHighlightError(error.code, error.message);
}
