import {
  createBrowserRouter,
  matchRoutes,
  Outlet,
  redirect,
  type HydrationState,
  type LoaderFunction,
  type RouteObject,
} from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './auth/RequireAuth';
import type { RouteHandle } from './layout/useRouteTitle';
import { publicDataLoader } from './ssr/publicData';
import { docsLoader } from './docs/loader';

// Pages load on demand so the first paint of any route ships only what that route needs. The
// glob names each page by its file, so the server can link the page's own CSS and scripts from
// the build manifest (ssr/assets.ts) and the first paint of a server-rendered page is styled.
const modules = import.meta.glob<{ default: React.ComponentType }>(['./pages/*/*Page.tsx', './layout/AccountLayout.tsx']);

/** The page's own tab title (layout/useRouteTitle.ts); `ssr` pages are rendered by the server too. */
const titled = (title: string, ssr = false): RouteHandle => ({ title, ...(ssr ? { ssr } : {}) });
const serverRendered: RouteHandle = { ssr: true };

/** A route's lazy component, and the source file it comes from (handle.module). */
function page(file: string) {
  const load = modules[file];
  if (!load) throw new Error(`routes.tsx: no page module ${file}`);
  return async () => ({ Component: (await load()).default });
}

/** `page` plus the handle naming the module, for routes whose handle says nothing else. */
const withModule = (handle: RouteHandle, file: string): RouteHandle => ({ ...handle, module: file });

function route(path: string, file: string, handle: RouteHandle = {}, loader?: LoaderFunction): RouteObject {
  // The data is the server's, handed over once: nothing in the browser changes it (the app's
  // catalogue keeps itself fresh), so a search or a tab change does not run the loader again.
  return { path, handle: withModule(handle, file), lazy: page(file), ...(loader ? { loader, shouldRevalidate: () => false } : {}) };
}

// The server's data for the pages that show it (ssr/publicData.ts): each its own part of the catalogue.
const homeData = publicDataLoader({ catalogue: 'home', repo: true });
const overviewData = publicDataLoader({ catalogue: 'overview' });
const serviceData = publicDataLoader({ catalogue: 'service' });

/** The route table of product-rules §2. Paths are matched case-sensitively where the spec names both forms. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      route('/', './pages/home/HomePage.tsx', { title: 'Serverless GPU cloud for AI model APIs', brandFirst: true, ssr: true }, homeData),
      route('/signinup', './pages/signin/SignInUpPage.tsx', titled('Sign in')),
      route('/SignInUp', './pages/signin/SignInUpPage.tsx', titled('Sign in')),
      route('/Pricing', './pages/pricing/PricingPage.tsx', titled('Pricing', true)),
      route('/pricing', './pages/pricing/PricingPage.tsx', titled('Pricing', true)),
      route('/Hosting', './pages/hosting/HostingPage.tsx', titled('Hosting', true)),
      route('/hosting', './pages/hosting/HostingPage.tsx', titled('Hosting', true)),
      route('/SignedOut', './pages/signin/SignedOutPage.tsx', titled('Signed out')),
      route('/terms_of_service', './pages/policies/TermsPage.tsx', titled('Terms of Service', true)),
      route('/privacy_policy', './pages/policies/PrivacyPage.tsx', titled('Privacy Policy', true)),
      route('/Subscribe', './pages/subscribe/SubscribePage.tsx', titled('Subscribe')),
      route('/notification', './pages/system/NotificationPage.tsx', titled('Notification')),
      route('/Invest', './pages/company/CompanyPage.tsx', titled('Invest', true)),
      route('/company', './pages/company/CompanyPage.tsx', titled('About us', true)),
      route('/Company', './pages/company/CompanyPage.tsx', titled('About us', true)),
      route('/careers', './pages/company/CompanyPage.tsx', titled('Careers', true)),
      // Redirects are loaders, so the server answers them with a 302 as the browser router does.
      { path: '/APIs', loader: () => redirect('/APIs/Overview') },
      route('/APIs/Overview', './pages/catalogue/OverviewPage.tsx', serverRendered, overviewData),
      route('/APIs/overview', './pages/catalogue/OverviewPage.tsx', serverRendered, overviewData),
      route('/APIs/service/:serviceId', './pages/catalogue/ServicePage.tsx', serverRendered, serviceData),
      route('/APIs/service/:owner/:name', './pages/catalogue/ServicePage.tsx', serverRendered, serviceData),
      {
        // Owner only: RequireAuth asks for sign-in, the server refuses other users (docs/publishing.md).
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [route('/APIs/edit/:serviceId', './pages/publish/EditServicePage.tsx')],
      },
      // The docs, made by the server from docs/*.md and the OpenAPI document (docs/deploy.md, "The docs on the site").
      route('/docs', './pages/docs/DocsPage.tsx', serverRendered, docsLoader(null)),
      route('/docs/api', './pages/docs/ApiReferencePage.tsx', serverRendered, docsLoader('api')),
      route('/docs/:slug', './pages/docs/DocsPage.tsx', serverRendered, docsLoader()),
      route('/404', './pages/system/NotFoundPage.tsx', titled('Page not found', true)),
      { path: '*', loader: () => redirect('/404') },
    ],
  },
  {
    path: '/account',
    handle: { module: './layout/AccountLayout.tsx' } satisfies RouteHandle,
    lazy: page('./layout/AccountLayout.tsx'),
    children: [
      { index: true, loader: () => redirect('/account/dashboard') },
      route('dashboard', './pages/account/DashboardPage.tsx', titled('Dashboard')),
      route('profile', './pages/account/ProfilePage.tsx', titled('Profile')),
      route('api-keys', './pages/account/ApiKeysPage.tsx', titled('API keys')),
      route('billing', './pages/account/BillingPage.tsx', titled('Billing')),
      route('hosting', './pages/account/HostedServicesPage.tsx', titled('Hosted services')),
      route('hostingActive2', './pages/account/HostedServicesPage.tsx', titled('Hosted services')),
      route('support', './pages/account/SupportPage.tsx', titled('Support')),
    ],
  },
];

/**
 * Loads the page modules of the routes `pathname` opens and puts them on the routes, so the
 * router starts with its first page in hand: hydration then renders what the server sent, and
 * a client-only page never waits on a HydrateFallback (docs/deploy.md, "Lean first load").
 */
export async function resolveLazyRoutes(pathname: string): Promise<void> {
  const matches = (matchRoutes(routes, pathname) ?? []).filter((match) => typeof match.route.lazy === 'function');
  await Promise.all(
    matches.map(async ({ route: matched }) => {
      const loaded = await (matched.lazy as () => Promise<Partial<RouteObject>>)();
      Object.assign(matched, { ...loaded, lazy: undefined });
    }),
  );
}

export function createAppRouter(hydrationData?: HydrationState) {
  return createBrowserRouter(routes, hydrationData ? { hydrationData } : {});
}
