import { useEffect, useRef, useState } from 'react';
import { companyMenu, mainMenu, mobileDocsMenu } from '../site/links';
import { MenuLink } from './MenuLink';
import * as styles from './layout.css';

/** product-rules §2: the drawer opens on a mobile-menu toggle event, so any part of the page can open it. */
export const MOBILE_MENU_TOGGLE_EVENT = 'lime:mobile-menu-toggle';

export function toggleMobileMenu() {
  window.dispatchEvent(new Event(MOBILE_MENU_TOGGLE_EVENT));
}

/** Right-side temporary drawer, 250 px wide, titled Menu; closes after a link is chosen. */
export function MobileMenu() {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDivElement>(null);
  const opener = useRef<Element | null>(null);

  useEffect(() => {
    const toggle = () => {
      opener.current = document.activeElement;
      setOpen((o) => !o);
    };
    window.addEventListener(MOBILE_MENU_TOGGLE_EVENT, toggle);
    return () => window.removeEventListener(MOBILE_MENU_TOGGLE_EVENT, toggle);
  }, []);

  useEffect(() => {
    if (!open) {
      (opener.current as HTMLElement | null)?.focus?.();
      return;
    }
    dialog.current?.querySelector<HTMLElement>('a, button')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
      if (event.key !== 'Tab' || !dialog.current) return;
      // Keep Tab inside the drawer while it is open (modal).
      const focusable = [...dialog.current.querySelectorAll<HTMLElement>('a, button')];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  if (!open) return null;
  const close = () => setOpen(false);
  return (
    <>
      <div className={styles.drawerBackdrop} aria-hidden="true" onClick={close} />
      <div ref={dialog} role="dialog" aria-modal="true" aria-labelledby="lime-mobile-menu-title" className={styles.drawer}>
        <div className={styles.drawerHeader}>
          <h2 id="lime-mobile-menu-title" className={styles.drawerTitle}>
            Menu
          </h2>
          <button type="button" className={styles.navLink} aria-label="Close menu" onClick={close}>
            ✕
          </button>
        </div>
        <nav aria-label="Mobile">
          <ul className={styles.drawerList}>
            {mainMenu.map((item) => (
              <li key={item.route}>
                <MenuLink item={item} onChoose={close} />
              </li>
            ))}
          </ul>
          <h3 className={styles.drawerGroupTitle}>Company</h3>
          <ul className={styles.drawerList}>
            {companyMenu.map((item) => (
              <li key={item.route}>
                <MenuLink item={item} onChoose={close} />
              </li>
            ))}
          </ul>
          <h3 className={styles.drawerGroupTitle}>Docs</h3>
          <ul className={styles.drawerList}>
            {mobileDocsMenu.map((item) => (
              <li key={item.route}>
                <MenuLink item={item} onChoose={close} />
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </>
  );
}
