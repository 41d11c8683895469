import { useEffect, useRef } from 'react';
import { AuthDialog } from '../components/AuthDialog';
import { screenOfPageState } from '../auth/screens';
import { defineWidget, type WidgetRenderProps } from './defineWidget';
import { authDialogDefinition } from './definitions/authDialog';

function AuthDialogWidget({ attributes: a, context }: WidgetRenderProps<typeof authDialogDefinition>) {
  const open = a.open === true;
  // One `close` per closing, whatever closed it (close button, Escape, after authenticated,
  // close(), the attribute removed by the page).
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) context.emit('close', null);
    wasOpen.current = open;
  }, [open, context]);

  return (
    <AuthDialog
      mode="overlay"
      open={open}
      // The overlay starts at state 1 (product-rules §4) and moves to page-state right after.
      value={a.pageState !== undefined ? screenOfPageState(a.pageState) : undefined}
      onAuthenticated={(session) => context.emit('authenticated', session)}
      onClose={() => context.host.removeAttribute('open')}
    />
  );
}

const Base = /* @__PURE__ */ defineWidget(authDialogDefinition, AuthDialogWidget);

/** `<lime-auth-dialog>`: the sign-in overlay, opened by `show()` or the `open` attribute. */
export class LimeAuthDialogElement extends Base {
  /** Opens the dialog (sets the `open` attribute). */
  show(): void {
    this.setAttribute('open', '');
  }

  /** Closes the dialog (removes the `open` attribute); `close` follows. */
  close(): void {
    this.removeAttribute('open');
  }

  /** Whether the dialog is open: the `open` attribute, as on `<dialog>`. */
  get open(): boolean {
    return this.hasAttribute('open');
  }

  set open(value: boolean) {
    this.toggleAttribute('open', Boolean(value));
  }
}
