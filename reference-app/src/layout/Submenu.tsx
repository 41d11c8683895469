import { useEffect, useId, useRef, useState } from 'react';
import type { MenuItem } from '../site/links';
import { MenuLink } from './MenuLink';
import * as styles from './layout.css';

/**
 * Disclosure-style submenu (a button that shows a list of links). Escape and a click outside
 * close it; choosing a link closes it too. Disclosure rather than ARIA menu: these are links,
 * and the disclosure pattern keeps Tab order natural.
 */
export function Submenu({ label, items }: { label: string; items: MenuItem[] }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className={styles.submenu} ref={root} data-state={open ? 'open' : 'closed'}>
      <button
        ref={button}
        type="button"
        className={styles.navLink}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        {label}
        <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      <ul id={id} className={styles.submenuList} hidden={!open}>
        {items.map((item) => (
          <li key={item.route}>
            <MenuLink item={item} onChoose={() => setOpen(false)} />
          </li>
        ))}
      </ul>
    </div>
  );
}
