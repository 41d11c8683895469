import { Link } from 'react-router';
import { useSession } from '@limelight/widgets/auth';
import { useSignOut } from '../../auth/session';
import * as styles from '../AccountLayout.css';
import { useDisclosure } from '../useDisclosure';

/**
 * product-rules §2: the account area's user menu shows the user's email, with 'Profile' (route profile)
 * and 'Logout'. A disclosure like the header's submenus: Escape and a click outside close it.
 */
export function UserMenu() {
  const email = useSession((state) => state.session?.user.email ?? '');
  const signOut = useSignOut();
  const { open, setOpen, id, root, button } = useDisclosure();

  return (
    <div className={styles.userMenu} ref={root} data-state={open ? 'open' : 'closed'}>
      <button
        ref={button}
        type="button"
        className={styles.menuButton}
        aria-expanded={open}
        aria-controls={id}
        aria-label={`Account menu for ${email}`}
        onClick={() => setOpen((o) => !o)}
      >
        <span className={styles.email}>{email}</span>
        <span aria-hidden="true">{open ? '▴' : '▾'}</span>
      </button>
      <ul id={id} className={styles.menuList} hidden={!open}>
        <li>
          <Link className={styles.menuItem} to="/account/profile" onClick={() => setOpen(false)}>
            Profile
          </Link>
        </li>
        <li>
          <button
            type="button"
            className={styles.menuItem}
            onClick={() => {
              setOpen(false);
              void signOut();
            }}
          >
            Logout
          </button>
        </li>
      </ul>
    </div>
  );
}
