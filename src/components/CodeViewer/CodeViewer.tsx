import {
  autoUpdate,
  flip,
  FloatingPortal,
  offset,
  shift,
  useDismiss,
  useFloating,
  useFocus,
  useHover,
  useInteractions,
} from '@floating-ui/react';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { formatString } from '../../config/strings';
import { useThemeClass } from '../../config/useThemeClass';
import { colorKey, fontStyleNames } from '../../code/colors';
import { DEFAULT_CODE_THEME, HIGHLIGHT_TIME_LIMIT_MS, TOOLTIP_OFFSET_PX, type CodeLanguage, type CodeTheme } from '../../code/constants';
import type { CodeHighlightError } from '../../code/errors';
import type { CodeHighlighter, HighlightedCode } from '../../code/highlighter';
import { isCodeTheme, resolveCodeLanguage } from '../../code/resolve';
import * as themes from './codeThemes.css';
import * as styles from './CodeViewer.css';
import { CheckIcon, CopyIcon } from './icons';
import { useCodeHighlight } from './useCodeHighlight';
import { useCopyButton } from './useCopyButton';

/** The code viewer's size: `default` (12px, up to 400px high) or `sample`, the home page's sample-code block (14px, up to 300px). */
export type CodeViewerVariant = 'default' | 'sample';

/** Props of `CodeViewer`. */
export interface CodeViewerProps {
  /** The code to show. Empty or whitespace-only code shows 'No code to display' (product-rules §4, §5). */
  code: string;
  /**
   * Language of the code; one of json, javascript, typescript, python, html, css, scss, vue,
   * markdown, yaml, xml, sql, bash, shell, text (product-rules §5). Anything else is refused: the raw
   * code is shown with 'Failed to highlight code' and `onError` says why.
   * @default 'json'
   */
  language?: CodeLanguage | (string & {});
  /**
   * Colour theme; one of dark-plus, light-plus, github-dark, github-light, monokai, nord,
   * one-dark-pro, dracula (product-rules §5).
   * @default 'dark-plus'
   */
  theme?: CodeTheme | (string & {});
  /**
   * `sample` is the home page's sample-code block: 14px (12px on medium-and-down), max height
   * 300px; `default` is 12px, max height 400px (product-rules §9). Hosts may also set
   * `--lime-code-max-height` and `--lime-code-font-size` in CSS.
   * @default 'default'
   */
  variant?: CodeViewerVariant;
  /**
   * Shows the copy button.
   * @default true
   */
  copyable?: boolean;
  /**
   * Shows the language name in the toolbar.
   * @default true
   */
  showLanguage?: boolean;
  /**
   * Where the copy button's tooltip is portalled. Without it the tooltip renders beside the
   * button (no document.body portal), which also works inside a shadow root.
   * @default null
   */
  portalContainer?: HTMLElement | null;
  /**
   * Milliseconds the highlighter may take before the raw code is shown instead (product-rules §9).
   * @default 500
   */
  timeLimitMs?: number;
  /**
   * Accessible name of the scrollable code region.
   * @default strings.code.regionLabel with the language
   */
  label?: string;
  /** Extra class on the root element. */
  className?: string;
  /** Called with the reason when highlighting fails, is refused or times out. */
  onError?: (error: CodeHighlightError) => void;
  /** Called with the code after it was copied. */
  onCopy?: (code: string) => void;
  /**
   * Supplies the highlighter (tests, or a host with its own instance).
   * @default the shared highlighter (`getCodeHighlighter`)
   */
  highlighter?: () => Promise<CodeHighlighter>;
}

function renderTokens(result: HighlightedCode): ReactNode {
  return result.lines.map((line, index) => (
    <span className={styles.line} key={index}>
      {line.map((token, t) => {
        const key = colorKey(token.color);
        const classes = [key ? themes.tokenColor[key] : undefined, ...fontStyleNames(token.fontStyle).map((n) => themes.fontStyle[n])]
          .filter(Boolean)
          .join(' ');
        return (
          <span className={classes || undefined} key={t}>
            {token.content}
          </span>
        );
      })}
      {index < result.lines.length - 1 ? '\n' : null}
    </span>
  ));
}

/**
 * Syntax-highlighted code (product-rules §4 "Code display"): loading, error (raw code shown), highlighted
 * and empty states, a copy button with a tooltip, colours as classes (CSP `style-src 'self'`).
 */
export function CodeViewer({
  code,
  language,
  theme,
  variant = 'default',
  copyable = true,
  showLanguage = true,
  portalContainer = null,
  timeLimitMs = HIGHLIGHT_TIME_LIMIT_MS,
  label,
  className,
  onError,
  onCopy,
  highlighter,
}: CodeViewerProps) {
  const strings = useStrings().code;
  const themeClass = useThemeClass();
  const rootRef = useRef<HTMLDivElement>(null);
  const view = useCodeHighlight({ code, language, theme, timeLimitMs, highlighter, onError });

  const getContainer = useCallback(() => rootRef.current, []);
  const copy = useCopyButton({ text: code, container: getContainer, bufferClassName: styles.copyBuffer, onCopy });

  const [hovered, setHovered] = useState(false);
  const portalled = portalContainer != null;
  const { refs, floatingStyles, context } = useFloating({
    open: hovered,
    onOpenChange: setHovered,
    placement: 'left',
    middleware: portalled ? [offset(TOOLTIP_OFFSET_PX), flip(), shift({ padding: 4 })] : [],
    whileElementsMounted: portalled ? autoUpdate : undefined,
  });
  const { getReferenceProps, getFloatingProps } = useInteractions([
    useHover(context, { delay: { open: 150, close: 0 } }),
    useFocus(context),
    useDismiss(context),
  ]);

  let languageName: string;
  try {
    languageName = resolveCodeLanguage(language);
  } catch {
    languageName = String(language);
  }
  const codeTheme: CodeTheme = isCodeTheme(theme) ? theme : DEFAULT_CODE_THEME;
  const tokens = useMemo(() => (view.state === 'highlighted' ? renderTokens(view.result) : null), [view]);
  const copyLabel = copy.state === 'copied' ? strings.copied : strings.copy;
  const message = view.state === 'loading' ? strings.loading : view.state === 'error' ? strings.error : '';
  const tooltipOpen = hovered || copy.state === 'copied';

  const tooltip = tooltipOpen ? (
    <span
      ref={refs.setFloating}
      className={portalled ? `${themeClass} ${styles.tooltipFloating}` : styles.tooltipInline}
      // Only a portalled tooltip needs computed coordinates; React writes them through the
      // CSSOM, which `style-src 'self'` allows. The default inline tooltip is static CSS.
      style={portalled ? floatingStyles : undefined}
      aria-hidden="true"
      data-state={copy.state}
      {...getFloatingProps()}
    >
      {copyLabel}
    </span>
  ) : null;

  return (
    <div
      ref={rootRef}
      className={[themeClass, styles.root, themes.codeTheme[codeTheme], className].filter(Boolean).join(' ')}
      data-lime="code-viewer"
      data-state={view.state}
      data-variant={variant}
      data-language={languageName}
      data-theme={codeTheme}
    >
      <div className={styles.toolbar}>
        {showLanguage && <span className={styles.languageLabel}>{languageName}</span>}
        <span role="status" className={styles.status}>
          {message}
        </span>
        {copyable && view.state !== 'empty' && (
          <span className={styles.copyArea}>
            <button
              ref={refs.setReference}
              type="button"
              className={styles.copyButton}
              aria-label={copyLabel}
              data-state={copy.state}
              {...getReferenceProps({ onClick: () => void copy.copy() })}
            >
              {copy.state === 'copied' ? <CheckIcon /> : <CopyIcon />}
            </button>
            {portalled ? <FloatingPortal root={portalContainer}>{tooltip}</FloatingPortal> : tooltip}
            <span role="status" className={styles.visuallyHidden}>
              {copy.state === 'copied' ? strings.copied : ''}
            </span>
          </span>
        )}
      </div>
      {view.state === 'empty' ? (
        <p className={styles.empty}>{strings.empty}</p>
      ) : (
        <pre
          className={styles.scroller({ variant })}
          // Focusable so keyboard users can scroll it; a group (not a landmark) since a page may
          // hold many blocks.
          tabIndex={0}
          role="group"
          aria-label={label ?? formatString(strings.regionLabel, { language: languageName })}
          aria-busy={view.state === 'loading' || undefined}
        >
          <code className={styles.code}>{tokens ?? code}</code>
        </pre>
      )}
    </div>
  );
}
