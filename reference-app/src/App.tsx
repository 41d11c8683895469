import type { ReactNode } from 'react';
import { PlatformProvider } from '@limelight/widgets/platform';
import { CatalogueProvider } from '@limelight/widgets/catalogue';
import { AppAuthProvider, getAccessToken } from './auth/session';
import type { PublicCatalogue } from './ssr/publicData';
import { useAppCatalogue } from './ssr/useAppCatalogue';
import type { SiteConfig } from './siteConfig';

// The page wears the dark theme (product-rules §1) so plain page content shares the widgets'
// tokens: the class is on <html> in index.html, so the server-rendered page has it from the start.

function AppCatalogue({ initial, children }: { initial: PublicCatalogue | null | undefined; children: ReactNode }) {
  return <CatalogueProvider catalogue={useAppCatalogue(initial)}>{children}</CatalogueProvider>;
}

/**
 * The providers around the router, the same in the browser (main.tsx, with RouterProvider) and
 * on the server (entry-server.tsx, with StaticRouterProvider).
 */
export function App({
  config,
  navigate,
  catalogue,
  children,
}: {
  config: SiteConfig;
  navigate: (path: string) => void;
  /** The catalogue the server rendered with, if it did. */
  catalogue?: PublicCatalogue | null;
  children: ReactNode;
}) {
  return (
    <PlatformProvider
      apiUrl={config.apiUrl}
      authUrl={config.authUrl}
      authKey={config.authKey}
      navigate={navigate}
      getAccessToken={getAccessToken}
    >
      <AppCatalogue initial={catalogue}>
        <AppAuthProvider>{children}</AppAuthProvider>
      </AppCatalogue>
    </PlatformProvider>
  );
}
