import { Link } from 'react-router';
import { footerColumns, socialLinks } from '../site/links';
import * as styles from './layout.css';

/** Footer of product-rules §1: three equal columns, social links, copyright with the current year. */
export function Footer({ year = new Date().getFullYear() }: { year?: number }) {
  return (
    <footer className={styles.footer}>
      <div className={styles.footerColumns}>
        {footerColumns.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className={styles.footerTitle}>{column.title}</h2>
            <ul className={styles.footerList}>
              {column.items.map((item) => (
                <li key={item.title}>
                  <Link className={styles.footerLink} to={item.route}>
                    {item.title}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className={styles.footerBottom}>
        <p>© {year} Limelight. All rights reserved.</p>
        <ul className={styles.socialList} aria-label="Social media">
          {socialLinks.map((item) => (
            <li key={item.title}>
              <a className={styles.footerLink} href={item.route} target="_blank" rel="noopener noreferrer">
                {item.title}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </footer>
  );
}
