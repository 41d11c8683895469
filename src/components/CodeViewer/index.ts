export { CodeViewer } from './CodeViewer';
export type { CodeViewerProps, CodeViewerVariant } from './CodeViewer';
export { useCodeHighlight } from './useCodeHighlight';
export type { CodeHighlightView, CodeViewerState, UseCodeHighlightOptions } from './useCodeHighlight';
export { useCopyButton } from './useCopyButton';
export type { CopyState, UseCopyButtonOptions } from './useCopyButton';
export * from '../../code';
