import { NavLink } from 'react-router';
import type { MenuItem } from '../site/links';
import * as styles from './layout.css';

/** A menu entry: in-app routes through the router, external ones in a new tab. */
export function MenuLink({ item, onChoose }: { item: MenuItem; onChoose?: () => void }) {
  if (item.external) {
    return (
      <a className={styles.navLink} href={item.route} target="_blank" rel="noopener noreferrer" onClick={onChoose}>
        {item.title}
        <span aria-hidden="true">↗</span>
      </a>
    );
  }
  return (
    <NavLink className={styles.navLink} to={item.route} onClick={onChoose} end reloadDocument={item.document}>
      {item.title}
    </NavLink>
  );
}
