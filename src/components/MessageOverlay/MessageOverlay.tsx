import { useEffect, useRef } from 'react';
import { useStrings } from '../../config/PlatformProvider';
import { useThemeClass } from '../../config/useThemeClass';
import type { GlobalEventsStore } from '../../notifications/globalEvents';
import { CloseIcon, ErrorIcon, SuccessIcon, WarningIcon } from './icons';
import * as styles from './MessageOverlay.css';
import { useMessageOverlay } from './useMessageOverlay';

/** Props of `MessageOverlay`. */
export interface MessageOverlayProps {
  /**
   * Global events store to show.
   * @default the page-wide `globalEvents` store
   */
  store?: GlobalEventsStore;
  /** Called when the user asks to reload from the critical overlay. @default window.location.reload */
  onReload?: () => void;
}

/**
 * Shows the global notifications (product-rules §4): a blocking overlay for critical messages, a closable
 * alert titled Warning, a closable success alert, and a full-screen spinner while loading.
 */
export function MessageOverlay({ store, onReload }: MessageOverlayProps) {
  const { success, warning, critical, loading, close } = useMessageOverlay(store);
  const strings = useStrings().notifications;
  const themeClass = useThemeClass();
  const reloadRef = useRef<HTMLButtonElement>(null);

  // A blocking message takes focus so keyboard and screen-reader users meet it at once.
  useEffect(() => {
    if (critical !== null) reloadRef.current?.focus();
  }, [critical]);

  return (
    <div className={themeClass} data-lime="message-overlay">
      <div className={styles.toastRegion}>
        {warning !== null && (
          <div role="alert" className={styles.alert({ kind: 'warning' })} data-state="warning">
            <WarningIcon />
            <div>
              <h2 className={styles.alertTitle}>{strings.warningTitle}</h2>
              <p className={styles.alertMessage}>{warning || strings.defaultError}</p>
            </div>
            <button type="button" className={styles.closeButton} aria-label={strings.dismiss} onClick={() => close('warning')}>
              <CloseIcon />
            </button>
          </div>
        )}
        {success !== null && (
          <div role="status" className={styles.alert({ kind: 'success' })} data-state="success">
            <SuccessIcon />
            <p className={styles.alertMessage}>{success || strings.defaultSuccess}</p>
            <button type="button" className={styles.closeButton} aria-label={strings.dismiss} onClick={() => close('success')}>
              <CloseIcon />
            </button>
          </div>
        )}
      </div>
      {loading && (
        <div className={styles.loadingBackdrop} data-state="loading">
          <div role="progressbar" aria-label={strings.loadingLabel} aria-busy="true" className={styles.spinner} />
        </div>
      )}
      {critical !== null && (
        <div className={styles.criticalBackdrop} data-state="critical">
          <div
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="lime-critical-title"
            aria-describedby="lime-critical-message"
            className={styles.criticalPanel}
          >
            <ErrorIcon />
            <h2 id="lime-critical-title" className={styles.criticalTitle}>
              {strings.criticalTitle}
            </h2>
            <p id="lime-critical-message">{critical || strings.defaultError}</p>
            <button ref={reloadRef} type="button" className={styles.reloadButton} onClick={onReload ?? (() => window.location.reload())}>
              {strings.reload}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
