/** Why highlighting did not happen. */
export type CodeHighlightErrorCode =
  /** The language is not one of product-rules §5's list. */
  | 'unsupported-language'
  /** The theme is not one of product-rules §5's list. */
  | 'unsupported-theme'
  /** The highlighter did not answer within the time limit (product-rules §9, 500 ms). */
  | 'timeout'
  /** Loading a grammar or theme, or tokenising, threw. */
  | 'failed';

/** The one error class of the code layer: `name` set, the cause kept, the bad input named. */
export class CodeHighlightError extends Error {
  override name = 'CodeHighlightError';
  readonly code: CodeHighlightErrorCode;
  constructor(code: CodeHighlightErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

export function isCodeHighlightError(error: unknown): error is CodeHighlightError {
  return error instanceof CodeHighlightError;
}
