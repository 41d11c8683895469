import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { PlatformProvider } from '@limelight/widgets/platform';
import { darkTheme } from '@limelight/widgets/theme/dark';
import { createAppRouter } from './routes';
import { AppAuthProvider, getAccessToken } from './auth/session';
import type { SiteConfig } from './siteConfig';

// The page itself wears the dark theme (product-rules §1) so plain page content shares the widgets' tokens.
document.documentElement.classList.add(darkTheme);

export function App({ config }: { config: SiteConfig }) {
  const router = useMemo(() => createAppRouter(), []);
  const navigate = useMemo(() => (path: string) => void router.navigate(path), [router]);
  return (
    <PlatformProvider
      apiUrl={config.apiUrl}
      authUrl={config.authUrl}
      authKey={config.authKey}
      navigate={navigate}
      getAccessToken={getAccessToken}
    >
      <AppAuthProvider>
        <RouterProvider router={router} />
      </AppAuthProvider>
    </PlatformProvider>
  );
}
