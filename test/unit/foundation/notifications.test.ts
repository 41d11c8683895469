import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createNotifier } from '../../../src/notifications';
import { createGlobalEventsStore } from '../../../src/notifications/globalEvents';
import { defaultStrings } from '../../../src/config';

describe('global events store (product-rules §3, §4 "Global notifications")', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('starts with nothing shown and login status unknown', () => {
    expect(createGlobalEventsStore().getSnapshot().context).toEqual({
      is_logged_in: null,
      success: null,
      warning: null,
      critical: null,
      loading: false,
    });
  });

  it('shows and clears each kind of message and the loading flag', () => {
    const store = createGlobalEventsStore();
    const notify = createNotifier(store);
    notify.success('Saved');
    notify.warning('Careful');
    notify.critical('Broken');
    notify.setLoading(true);
    notify.setLoggedIn(true);
    expect(store.getSnapshot().context).toEqual({
      is_logged_in: true,
      success: 'Saved',
      warning: 'Careful',
      critical: 'Broken',
      loading: true,
    });
    notify.clear('warning');
    expect(store.getSnapshot().context.warning).toBeNull();
    expect(store.getSnapshot().context.success).toBe('Saved');
  });

  it('auto-clears after the given time, but never a newer message shown meanwhile', () => {
    const store = createGlobalEventsStore();
    const notify = createNotifier(store);
    notify.success('First', { autoClearMs: 1000 });
    vi.advanceTimersByTime(999);
    expect(store.getSnapshot().context.success).toBe('First');
    vi.advanceTimersByTime(1);
    expect(store.getSnapshot().context.success).toBeNull();

    notify.warning('Old', { autoClearMs: 1000 });
    vi.advanceTimersByTime(500);
    notify.warning('New');
    vi.advanceTimersByTime(600);
    expect(store.getSnapshot().context.warning).toBe('New');
  });

  it('turns a failed API result into the catalogue message; 404 clears itself after 2000 ms (product-rules §8)', () => {
    const store = createGlobalEventsStore();
    const notify = createNotifier(store);
    notify.apiFailure({ status: 404, error: 'Not Found' }, defaultStrings.notifications.status);
    expect(store.getSnapshot().context.warning).toBe("Couldn't reach server. Are you online? Please try again.");
    vi.advanceTimersByTime(2000);
    expect(store.getSnapshot().context.warning).toBeNull();

    notify.apiFailure({ status: 453, error: 'x' }, defaultStrings.notifications.status);
    expect(store.getSnapshot().context.critical).toMatch(/^We had problems to sign you up/);
  });
});
