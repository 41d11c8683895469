export { CodeViewer } from './CodeViewer';
export type { CodeViewerProps, CodeViewerVariant } from './CodeViewer';
export { useCodeHighlight } from './useCodeHighlight';
export type { CodeHighlightView, CodeViewerState, UseCodeHighlightOptions } from './useCodeHighlight';
export { useCopyButton } from './useCopyButton';
export type { CopyState, UseCopyButtonOptions } from './useCopyButton';
export {
  CODE_LANGUAGES,
  CODE_THEMES,
  DEFAULT_CODE_LANGUAGE,
  DEFAULT_CODE_THEME,
  HIGHLIGHT_TIME_LIMIT_MS,
  COPY_CONFIRMATION_MS,
  TOOLTIP_OFFSET_PX,
} from '../../code/constants';
export type { CodeLanguage, CodeTheme } from '../../code/constants';
export { CodeHighlightError, isCodeHighlightError } from '../../code/errors';
export type { CodeHighlightErrorCode } from '../../code/errors';
export { createCodeHighlighter } from '../../code/highlighter';
export { getCodeHighlighter, resetCodeHighlighter, highlightCode } from '../../code/shared';
export { createWorkerCodeHighlighter } from '../../code/workerHighlighter';
export type { WorkerCodeHighlighterOptions } from '../../code/workerHighlighter';
export type { CodeHighlighter, HighlightedCode, HighlightedToken, HighlightOptions } from '../../code/highlighter';
export { copyText } from '../../code/clipboard';
