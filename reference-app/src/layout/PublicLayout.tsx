import { Outlet } from 'react-router';
import { MessageOverlay } from '@limelight/widgets/message-overlay';
import { Footer } from './Footer';
import { Header } from './Header';
import * as styles from './layout.css';
import { PageScroll } from './PageScroll';
import { useRouteTitle } from './useRouteTitle';

/** Standard pages (product-rules §2): public header, message overlay, routed view, footer. */
export function PublicLayout() {
  useRouteTitle();
  return (
    <>
      <a className={styles.skipLink} href="#main">
        Skip to content
      </a>
      <Header />
      <MessageOverlay />
      <main id="main" className={styles.main} tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <PageScroll />
    </>
  );
}
