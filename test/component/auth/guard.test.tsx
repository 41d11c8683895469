import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useRequireAuth } from '../../../src/auth';
import { type GuardDecision } from '../../../src/auth/guard';
import { AuthDialog } from '../../../src/components/AuthDialog';
import { PlatformProvider } from '../../../src/config';
import { createGlobalEventsStore, type GlobalEventsStore } from '../../../src/notifications/globalEvents';
import { expectNoAxeViolations } from '../../setup/axe';

function Probe({ store, timeoutMs }: { store: GlobalEventsStore; timeoutMs?: number }) {
  const decision: GuardDecision = useRequireAuth({ store, timeoutMs });
  return <p data-testid="decision">{decision}</p>;
}

function setup(loggedIn: boolean | null, timeoutMs?: number) {
  const store = createGlobalEventsStore({ is_logged_in: loggedIn });
  const navigate = vi.fn();
  render(
    <PlatformProvider navigate={navigate}>
      <Probe store={store} timeoutMs={timeoutMs} />
    </PlatformProvider>,
  );
  return { store, navigate, decision: () => screen.getByTestId('decision').textContent };
}

describe('useRequireAuth (product-rules §4 route guard)', () => {
  it('passes when logged in, without navigating', () => {
    const { navigate, decision } = setup(true);
    expect(decision()).toBe('pass');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('not logged in: goes to sign-in, page_state 1', () => {
    const { navigate, decision } = setup(false);
    expect(decision()).toBe('redirect');
    expect(navigate).toHaveBeenCalledWith('/signinup?page_state=1');
  });

  it('unknown: waits, and passes if the status arrives in time', () => {
    const { store, navigate, decision } = setup(null);
    expect(decision()).toBe('wait');
    act(() => store.send({ type: 'setLoggedIn', loggedIn: true }));
    expect(decision()).toBe('pass');
    expect(navigate).not.toHaveBeenCalled();
  });

  it('unknown for too long (3 s by default): goes to sign-in', async () => {
    vi.useFakeTimers();
    try {
      const { navigate, decision } = setup(null);
      act(() => vi.advanceTimersByTime(2999));
      expect(decision()).toBe('wait');
      expect(navigate).not.toHaveBeenCalled();
      act(() => vi.advanceTimersByTime(1));
      expect(decision()).toBe('redirect');
      expect(navigate).toHaveBeenCalledWith('/signinup?page_state=1');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('AuthDialog without an AuthProvider (how an embed uses it)', () => {
  it("builds the page's auth client from the platform's authUrl and authKey", async () => {
    render(
      <PlatformProvider authUrl="http://127.0.0.1:9" authKey="embed-key">
        <main>
          <AuthDialog />
        </main>
      </PlatformProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeTruthy();
    await expectNoAxeViolations(document);
  });
});
