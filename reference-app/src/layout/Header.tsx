import { Link } from 'react-router';
import { companyMenu, docsMenu, mainMenu } from '../site/links';
import { HeaderSearch } from './HeaderSearch';
import { HeaderUserSection } from './HeaderUserSection';
import { Logo } from './Logo';
import { MenuLink } from './MenuLink';
import { MobileMenu, toggleMobileMenu } from './MobileMenu';
import { Submenu } from './Submenu';
import * as styles from './layout.css';

/** Public header of product-rules §2: logo and title, search, user section, desktop menu, mobile toggle. */
export function Header() {
  return (
    <header className={styles.header}>
      <Link to="/" className={styles.brand} aria-label="Limelight home">
        <Logo className={styles.logo} />
        <span className={styles.brandTitle}>Limelight</span>
      </Link>
      <div className={styles.searchSlot}>
        <HeaderSearch />
      </div>
      <nav aria-label="Main" className={styles.desktopNav}>
        <ul className={styles.navList}>
          {mainMenu.map((item) => (
            <li key={item.route}>
              <MenuLink item={item} />
            </li>
          ))}
          <li>
            <Submenu label="Company" items={companyMenu} />
          </li>
          <li>
            <Submenu label="Docs" items={docsMenu} />
          </li>
        </ul>
      </nav>
      <div className={styles.userSlot}>
        <HeaderUserSection />
      </div>
      <button type="button" className={styles.menuToggle} aria-label="Open menu" onClick={toggleMobileMenu}>
        ☰
      </button>
      <MobileMenu />
    </header>
  );
}
