import type { MenuItem } from '../site/links';
import { useDisclosure } from './useDisclosure';
import { MenuLink } from './MenuLink';
import * as styles from './layout.css';

/**
 * Disclosure-style submenu (a button that shows a list of links). Escape and a click outside
 * close it; choosing a link closes it too. Disclosure rather than ARIA menu: these are links,
 * and the disclosure pattern keeps Tab order natural.
 */
export function Submenu({ label, items }: { label: string; items: MenuItem[] }) {
  const { open, setOpen, id, root, button } = useDisclosure();

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
