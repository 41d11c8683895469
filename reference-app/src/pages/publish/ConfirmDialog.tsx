import { useEffect, useId, useRef } from 'react';
import * as page from '../page.css';
import * as styles from './publish.css';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  text: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The confirmation destroys something (a deletion): its button is styled as such. */
  destructive?: boolean;
}

/**
 * A modal question with two answers (native `<dialog>`: focus moves in and is trapped, Escape
 * cancels, focus returns to where it was). The safe answer comes first and has the focus.
 */
export function ConfirmDialog({ open, title, text, confirmLabel, cancelLabel, onConfirm, onCancel, destructive }: ConfirmDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) element.showModal();
    if (!open && element.open) element.close();
  }, [open]);
  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      className={styles.dialog}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {open && (
        <>
          <h2 id={`${id}-title`} className={styles.sectionTitle}>
            {title}
          </h2>
          <p id={`${id}-text`}>{text}</p>
          <div className={styles.row}>
            <button type="button" className={page.button()} autoFocus onClick={onCancel}>
              {cancelLabel}
            </button>
            <button type="button" className={page.button({ tone: destructive ? 'danger' : 'outline' })} onClick={onConfirm}>
              {confirmLabel}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
