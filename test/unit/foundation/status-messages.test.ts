import { describe, expect, it } from 'vitest';
import { messageForStatus, NOT_FOUND_AUTO_CLEAR_MS } from '../../../src/api/statusMessages';
import { defaultStrings } from '../../../src/config';

const strings = defaultStrings.notifications.status;

describe('status -> message catalogue (product-rules §8 "Transport and status handling")', () => {
  it('0: offline warning', () => {
    expect(messageForStatus(0, strings)).toEqual({ message: "Couldn't reach server. Are you online?", presentation: 'warning' });
  });
  it('452 is a warning and 453 critical, with the same text', () => {
    const text = 'We had problems to sign you up. Please try again in a few minutes. If the problem persists, please contact us.';
    expect(messageForStatus(452, strings)).toEqual({ message: text, presentation: 'warning' });
    expect(messageForStatus(453, strings)).toEqual({ message: text, presentation: 'critical' });
  });
  it('401: not authorized warning', () => {
    expect(messageForStatus(401, strings)).toEqual({
      message: 'You are not authorized to see this data. Maybe your session has ended. Please sign in or sign up.',
      presentation: 'warning',
    });
  });
  it('404: warning that clears after 2000 ms', () => {
    expect(NOT_FOUND_AUTO_CLEAR_MS).toBe(2000);
    expect(messageForStatus(404, strings)).toEqual({
      message: "Couldn't reach server. Are you online? Please try again.",
      presentation: 'warning',
      autoClearMs: 2000,
    });
  });
  it("other >= 400: the given text, or 'An uknown error occured. Please try again.' as written", () => {
    expect(messageForStatus(500, strings)).toEqual({ message: 'An uknown error occured. Please try again.', presentation: 'warning' });
    expect(messageForStatus(409, strings, { text: 'Name taken' })).toEqual({ message: 'Name taken', presentation: 'warning' });
    expect(messageForStatus(500, strings, { text: '  ', critical: true })).toEqual({
      message: 'An uknown error occured. Please try again.',
      presentation: 'critical',
    });
  });
  it('successful statuses have no message', () => {
    expect(messageForStatus(200, strings)).toBeNull();
    expect(messageForStatus(304, strings)).toBeNull();
  });
});
