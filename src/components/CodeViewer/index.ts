export { CodeViewer } from './CodeViewer';
export type { CodeViewerProps, CodeViewerVariant } from './CodeViewer';
export type { CodeLanguage, CodeTheme } from '../../code/constants';
