import type { Strings } from '../config/strings';

export type Presentation = 'warning' | 'critical';

export interface StatusMessage {
  message: string;
  presentation: Presentation;
  /** Auto-clear after this many ms; undefined keeps it until closed. */
  autoClearMs?: number;
}

/** product-rules §8 "Transport and status handling": the 404 warning clears itself after 2000 ms. */
export const NOT_FOUND_AUTO_CLEAR_MS = 2000;

/**
 * The status -> message catalogue of product-rules §8. Returns null for successful statuses (< 400,
 * except 0 which means the server was not reached).
 */
export function messageForStatus(
  status: number,
  strings: Strings['notifications']['status'],
  options: { text?: string; critical?: boolean } = {},
): StatusMessage | null {
  switch (status) {
    case 0:
      return { message: strings.offline, presentation: 'warning' };
    case 452:
      return { message: strings.signUpProblem, presentation: 'warning' };
    case 453:
      return { message: strings.signUpProblem, presentation: 'critical' };
    case 401:
      return { message: strings.unauthorized, presentation: 'warning' };
    case 404:
      return { message: strings.notFound, presentation: 'warning', autoClearMs: NOT_FOUND_AUTO_CLEAR_MS };
  }
  if (status >= 400) {
    return {
      message: options.text?.trim() ? options.text : strings.unknown,
      presentation: options.critical ? 'critical' : 'warning',
    };
  }
  return null;
}
