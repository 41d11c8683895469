import type { CoreConfig } from '../config/core';
import type { RateDecision, RateLimiter } from '../http/rateLimit';

// One mail of each kind per address per EMAIL_MIN_INTERVAL (default 60 s), on every server
// process alike (the counters are in the database). Every sender of mail to an address that a
// request names calls this first, so nobody can flood an inbox through the platform. Counted
// on the requested address before any account lookup: a known and an unknown address answer
// alike, so the limit reveals nothing about who has an account.

/** The mails the platform sends to an address taken from a request. */
export type MailKind = 'signup' | 'magiclink' | 'recovery' | 'email_change' | 'newsletter_confirm' | 'support_receipt';

export interface MailLimitDeps {
  limiter: RateLimiter;
  config: Pick<CoreConfig, 'emailMinIntervalSeconds'>;
}

/** Counts one mail of `kind` to `to`; `allowed: false` means refuse with 429 and Retry-After. */
export function mailAllowed(deps: MailLimitDeps, kind: MailKind, to: string): Promise<RateDecision> {
  const interval = deps.config.emailMinIntervalSeconds;
  return deps.limiter.hit(`mail:${kind}`, to.trim().toLowerCase(), interval > 0 ? 1 : 0, Math.max(interval, 1));
}
