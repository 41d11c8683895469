import { useEffect } from 'react';
import { useBlocker } from 'react-router';
import { ConfirmDialog } from './ConfirmDialog';

/**
 * Asks before unsaved edits are lost: an in-page dialog when the owner follows a link inside the
 * site, the browser's own prompt when they close or reload the tab. `dirty` is a ref so the
 * check sees a save that has just finished.
 */
export function UnsavedChangesPrompt({ dirty }: { dirty: { current: boolean } }) {
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (dirty.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      title="Leave without saving?"
      text="Your changes to this service are not saved yet. If you leave now, they are lost."
      cancelLabel="Stay and keep editing"
      confirmLabel="Leave without saving"
      destructive
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    />
  );
}
