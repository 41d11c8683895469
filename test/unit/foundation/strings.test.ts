import { describe, expect, it } from 'vitest';
import { defaultStrings, formatString } from '../../../src/config';
import { mergeStrings } from '../../../src/config/strings';

describe('strings table (ARCHITECTURE rule 2)', () => {
  it("keeps the spec's default texts (product-rules §4 'Global notifications')", () => {
    expect(defaultStrings.notifications.defaultError).toBe('An error has occurred. Please try again later.');
    expect(defaultStrings.notifications.defaultSuccess).toBe('Success!');
    expect(defaultStrings.notifications.warningTitle).toBe('Warning');
  });

  it('overrides any subset without touching the rest', () => {
    const merged = mergeStrings({ notifications: { warningTitle: 'Achtung', status: { offline: 'Offline?' } } });
    expect(merged.notifications.warningTitle).toBe('Achtung');
    expect(merged.notifications.status.offline).toBe('Offline?');
    expect(merged.notifications.status.unknown).toBe('An uknown error occured. Please try again.');
    expect(defaultStrings.notifications.warningTitle).toBe('Warning');
  });

  it('refuses a non-string override with a message naming the key', () => {
    expect(() => mergeStrings({ notifications: { warningTitle: 42 as unknown as string } })).toThrow(
      'strings.notifications.warningTitle must be a string, got number',
    );
  });

  it('fills {placeholders} and leaves unknown ones', () => {
    expect(formatString('User {email} already exists {x}', { email: 'a@b.c' })).toBe('User a@b.c already exists {x}');
  });
});
