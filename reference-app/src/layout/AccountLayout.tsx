import { Link, NavLink, Outlet } from 'react-router';
import { MessageOverlay } from '@limelight/widgets/message-overlay';
import { RequireAuth } from '../auth/RequireAuth';
import { useSignOut } from '../auth/session';
import type { MenuItem } from '../site/links';
import { UserMenu } from './account/UserMenu';
import { Logo } from './Logo';
import { Submenu } from './Submenu';
import * as styles from './AccountLayout.css';
import { PageScroll } from './PageScroll';
import { useRouteTitle } from './useRouteTitle';

/** The account area's 'SDK' menu: the SDK guide and the API reference on the site's docs (issue 50). */
const sdkMenu: MenuItem[] = [
  { title: 'SDKs: Python and JavaScript', route: '/docs/sdk', document: true },
  { title: 'API reference', route: '/docs/api', document: true },
];

const accountLinks = [
  { title: 'Dashboard', route: '/account/dashboard' },
  { title: 'API keys', route: '/account/api-keys' },
  { title: 'Profile', route: '/account/profile' },
  { title: 'Billing', route: '/account/billing' },
  { title: 'Hosting', route: '/account/hosting' },
  { title: 'Support', route: '/account/support' },
];

/**
 * The account area (product-rules §2): needs login (the route guard of product-rules §4), a collapsed 70px header
 * with the 'SDK' menu and the user menu (hidden on mobile), then the routed page. No footer.
 */
export default function AccountLayout() {
  return (
    <RequireAuth
      fallback={(message) => (
        <div className={styles.root}>
          <main id="main" className={styles.main}>
            {message}
          </main>
        </div>
      )}
    >
      <AccountChrome />
    </RequireAuth>
  );
}

function AccountChrome() {
  useRouteTitle();
  const signOut = useSignOut();
  return (
    <div className={styles.root}>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <header className={styles.header}>
        <Link to="/" className={styles.brand} aria-label="Limelight home">
          <Logo className={styles.logo} />
          <span className={styles.brandTitle}>Limelight</span>
        </Link>
        <Link to="/APIs/Overview" className={styles.catalogueLink}>
          Browse APIs
        </Link>
        <Submenu label="SDK" items={sdkMenu} />
        <div className={styles.spacer} />
        <UserMenu />
        {/* In the header, not the account navigation, whose links scroll sideways on a phone and
            would carry Logout out of view. */}
        <button type="button" className={styles.mobileLogout} onClick={() => void signOut()}>
          Logout
        </button>
      </header>
      <nav aria-label="Account" className={styles.nav}>
        <ul className={styles.navList}>
          {accountLinks.map((link) => (
            <li key={link.route}>
              <NavLink to={link.route} className={styles.navLink}>
                {link.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <MessageOverlay />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      <PageScroll />
    </div>
  );
}
