import { describe, expect, it } from 'vitest';
import { SIGN_IN_PATH } from '../../../src/auth';
import { AUTH_WAIT_TIMEOUT_MS, decideGuard } from '../../../src/auth/guard';

describe('route guard (product-rules §4, §9)', () => {
  it('passes when logged in', () => {
    expect(decideGuard(true, 0)).toBe('pass');
    expect(decideGuard(true, 10_000)).toBe('pass');
  });

  it('sends a visitor who is not logged in to sign-in at once', () => {
    expect(decideGuard(false, 0)).toBe('redirect');
  });

  it('while the status is unknown waits up to 3 s, then goes to sign-in', () => {
    expect(AUTH_WAIT_TIMEOUT_MS).toBe(3000);
    expect(decideGuard(null, 0)).toBe('wait');
    expect(decideGuard(null, 2999)).toBe('wait');
    expect(decideGuard(null, 3000)).toBe('redirect');
    expect(decideGuard(null, 100, 50)).toBe('redirect');
  });

  it('sign-in means page_state 1', () => {
    expect(SIGN_IN_PATH).toBe('/signinup?page_state=1');
  });
});
