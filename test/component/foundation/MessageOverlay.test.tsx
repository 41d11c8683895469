import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { MessageOverlay } from '../../../src/components/MessageOverlay';
import { PlatformProvider } from '../../../src/config';
import { createNotifier } from '../../../src/notifications';
import { createGlobalEventsStore } from '../../../src/notifications/globalEvents';
import { expectNoAxeViolations } from '../../setup/axe';

function setup(theme: 'dark' | 'light' = 'dark') {
  const store = createGlobalEventsStore();
  const notify = createNotifier(store);
  const onReload = vi.fn();
  const view = render(
    <PlatformProvider theme={theme}>
      <main>
        <h1>Page</h1>
        <MessageOverlay store={store} onReload={onReload} />
      </main>
    </PlatformProvider>,
  );
  return { store, notify, onReload, ...view };
}

describe('MessageOverlay (product-rules §4 "Global notifications")', () => {
  it('shows nothing while the store is empty', () => {
    setup();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('shows a closable warning alert titled Warning; closing clears it from the store', async () => {
    const { notify, store } = setup();
    act(() => notify.warning('Disk almost full'));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Warning');
    expect(alert).toHaveTextContent('Disk almost full');
    await expectNoAxeViolations(document);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(store.getSnapshot().context.warning).toBeNull();
  });

  it("shows a closable success alert, with 'Success!' as the default text", async () => {
    const { notify, store } = setup('light');
    act(() => notify.success(''));
    expect(screen.getByRole('status')).toHaveTextContent('Success!');
    await expectNoAxeViolations(document);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(store.getSnapshot().context.success).toBeNull();
  });

  it('blocks the page with a critical message and moves focus into it', async () => {
    const { notify, onReload } = setup();
    act(() => notify.critical(''));
    const dialog = screen.getByRole('alertdialog');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveTextContent('An error has occurred. Please try again later.');
    const reload = screen.getByRole('button', { name: 'Reload page' });
    expect(reload).toHaveFocus();
    await expectNoAxeViolations(document);
    await userEvent.keyboard('{Enter}');
    expect(onReload).toHaveBeenCalledOnce();
  });

  it('covers the page with a large indeterminate spinner while loading', async () => {
    const { notify } = setup();
    act(() => notify.setLoading(true));
    const spinner = screen.getByRole('progressbar', { name: 'Loading' });
    expect(spinner).not.toHaveAttribute('aria-valuenow');
    const box = spinner.getBoundingClientRect();
    expect(box.width).toBeGreaterThanOrEqual(64);
    const backdrop = spinner.parentElement!.getBoundingClientRect();
    expect(backdrop.width).toBe(window.innerWidth);
    expect(backdrop.height).toBe(window.innerHeight);
    await expectNoAxeViolations(document);
    act(() => notify.setLoading(false));
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('auto-clears a message after the given time', async () => {
    const { notify } = setup();
    act(() => notify.success('Saved', { autoClearMs: 50 }));
    expect(screen.getByRole('status')).toHaveTextContent('Saved');
    await act(() => new Promise((r) => setTimeout(r, 80)));
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('applies theme variables from the stylesheet, not from style attributes', () => {
    const { container, notify } = setup('dark');
    act(() => notify.warning('x'));
    const root = container.querySelector('[data-lime="message-overlay"]')!;
    expect(getComputedStyle(root).getPropertyValue('--lime-color-primary').trim()).toBe('#c6f432');
    expect(container.querySelectorAll('[style]')).toHaveLength(0);
  });
});
