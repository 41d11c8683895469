import { useEffect, useRef, useState } from 'react';
import { HIGHLIGHT_TIME_LIMIT_MS } from '../../code/constants';
import { CodeHighlightError, isCodeHighlightError } from '../../code/errors';
import type { CodeHighlighter, HighlightedCode } from '../../code/highlighter';
import { getCodeHighlighter, peekCodeHighlighter } from '../../code/shared';
import { withTimeLimit } from '../../code/timeLimit';
import { isBlankCode, resolveCodeLanguage, resolveCodeTheme } from '../../code/resolve';

/** The four states of product-rules §4 "Code display", exposed to CSS as `data-state`. */
export type CodeViewerState = 'loading' | 'error' | 'highlighted' | 'empty';

export type CodeHighlightView =
  | { state: 'empty' }
  | { state: 'loading' }
  | { state: 'highlighted'; result: HighlightedCode }
  | { state: 'error'; error: CodeHighlightError };

export interface UseCodeHighlightOptions {
  code: string;
  language?: string;
  theme?: string;
  /** product-rules §9: 500 ms. A non-finite value disables the limit. */
  timeLimitMs?: number;
  /** Supplies the highlighter. @default the shared `getCodeHighlighter` */
  highlighter?: () => Promise<CodeHighlighter>;
  /** Told once per failure, with the reason (unsupported language, timeout, ...). */
  onError?: (error: CodeHighlightError) => void;
}

function toError(error: unknown): CodeHighlightError {
  if (isCodeHighlightError(error)) return error;
  return new CodeHighlightError('failed', `Could not highlight code: ${error instanceof Error ? error.message : String(error)}`, {
    cause: error,
  });
}

/**
 * What can be known without waiting: blank code is empty (never highlighted, product-rules §5), a
 * refused language or theme is an error, and the shared highlighter answers at once for code it
 * has highlighted before (the worker's recent results), so a block shown again (a remount, a
 * tab switched back) never flashes the loading state.
 */
function immediateView(code: string, language: string | undefined, theme: string | undefined, custom: boolean): CodeHighlightView {
  if (isBlankCode(code)) return { state: 'empty' };
  try {
    const lang = resolveCodeLanguage(language);
    const th = resolveCodeTheme(theme);
    const ready = custom ? undefined : peekCodeHighlighter();
    const result = ready?.highlightSync(code, { language: lang, theme: th });
    return result ? { state: 'highlighted', result } : { state: 'loading' };
  } catch (error) {
    return { state: 'error', error: toError(error) };
  }
}

/**
 * Headless highlighting for one block: loading -> highlighted, or -> error when the
 * highlighter fails or misses the time limit (product-rules §9, 500 ms; the raw code is then shown).
 * A block that missed the limit only because the worker was slow (a busy machine, a cold start)
 * keeps waiting for that same highlight and moves on to highlighted when it arrives, instead of
 * staying on "Failed to highlight code" for good.
 */
export function useCodeHighlight({
  code,
  language,
  theme,
  timeLimitMs = HIGHLIGHT_TIME_LIMIT_MS,
  highlighter,
  onError,
}: UseCodeHighlightOptions): CodeHighlightView {
  const key = `${language ?? ''}\u0000${theme ?? ''}\u0000${code}`;
  const [snapshot, setSnapshot] = useState(() => ({ key, view: immediateView(code, language, theme, !!highlighter) }));
  let current = snapshot;
  if (snapshot.key !== key) {
    // Props changed: start over during render (React's "adjust state on prop change" pattern).
    current = { key, view: immediateView(code, language, theme, !!highlighter) };
    setSnapshot(current);
  }

  const highlighterRef = useRef(highlighter);
  highlighterRef.current = highlighter;
  const onErrorRef = useRef(onError);
  onErrorRef.current = onError;

  /** The highlight in flight for `key`, so a late answer after a timeout is not asked for twice. */
  const inFlight = useRef<{ key: string; work: Promise<HighlightedCode> } | null>(null);

  const loading = current.view.state === 'loading';
  useEffect(() => {
    if (!loading) return;
    let cancelled = false;
    const source = highlighterRef.current ?? getCodeHighlighter;
    // The time limit's clock stops once tokenising starts (timeLimit.ts).
    let tokenising!: () => void;
    const clockStops = new Promise<void>((resolve) => (tokenising = resolve));
    const work = Promise.resolve()
      .then(() => source())
      .then((h) => h.highlight(code, { language, theme, onTokenising: tokenising }));
    inFlight.current = { key, work };
    withTimeLimit(work, timeLimitMs, clockStops).then(
      (result) => {
        if (!cancelled) setSnapshot((s) => (s.key === key ? { key, view: { state: 'highlighted', result } } : s));
      },
      (error: unknown) => {
        if (!cancelled) setSnapshot((s) => (s.key === key ? { key, view: { state: 'error', error: toError(error) } } : s));
      },
    );
    return () => {
      cancelled = true;
    };
    // `key` carries code, language and theme.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, loading, timeLimitMs]);

  const error = current.view.state === 'error' ? current.view.error : undefined;
  const timedOut = error?.code === 'timeout';
  useEffect(() => {
    if (!timedOut) return;
    let cancelled = false;
    const late =
      inFlight.current?.key === key
        ? inFlight.current.work
        : (highlighterRef.current ?? getCodeHighlighter)().then((h) => h.highlight(code, { language, theme }));
    late.then(
      (result) => {
        if (!cancelled) setSnapshot((s) => (s.key === key ? { key, view: { state: 'highlighted', result } } : s));
      },
      // The raw code stays on screen; the timeout was already reported.
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
    // `key` carries code, language and theme.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, timedOut]);

  useEffect(() => {
    if (!error) return;
    onErrorRef.current?.(error);
    if (process.env.NODE_ENV !== 'production' && error.code !== 'timeout') console.warn(`[limelight] ${error.message}`);
  }, [error]);

  return current.view;
}
