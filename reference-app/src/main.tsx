import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { darkTheme } from '@limelight/widgets/theme/dark';
import { App } from './App';
import { createAppRouter, resolveLazyRoutes } from './routes';
import { readHydration } from './ssr/hydration';
import { servedPublicData } from './ssr/publicData';
import { loadSiteConfig } from './siteConfig';
import './layout/global.css.ts';

// The page wears the dark theme (product-rules §1); a server-rendered page has it already.
document.documentElement.classList.add(darkTheme);

// A public page comes rendered by the server with its data (server/http/siteRenderer.ts) and is
// hydrated; any other page (the account area, sign-in) is rendered here. Either way the page's
// own module loads first, at the same time as the config, so the router starts with it: no
// HydrateFallback, and a hydration that renders exactly what the server sent. Not a top-level
// await: the page chunks import this entry chunk, which must finish evaluating first.
async function start() {
  const hydration = readHydration(document);
  const [config] = await Promise.all([hydration?.config ?? loadSiteConfig(), resolveLazyRoutes(window.location.pathname)]);
  const router = createAppRouter(hydration?.router);
  // A client-only page whose routes have loaders (redirects, the public data) waits for them.
  if (!router.state.initialized) {
    await new Promise<void>((resolve) => {
      const stop = router.subscribe((state) => {
        if (!state.initialized) return;
        stop();
        resolve();
      });
    });
  }
  const { catalogue } = servedPublicData(router.state.loaderData);
  const app = (
    <StrictMode>
      <App config={config} navigate={(path) => void router.navigate(path)} catalogue={catalogue}>
        <RouterProvider router={router} />
      </App>
    </StrictMode>
  );
  const root = document.getElementById('root')!;
  if (hydration) hydrateRoot(root, app);
  else createRoot(root).render(app);
}

void start();
