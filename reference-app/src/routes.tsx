import { createBrowserRouter, matchRoutes, Navigate, Outlet, type RouteObject } from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './auth/RequireAuth';
import type { RouteHandle } from './layout/useRouteTitle';

// Pages load on demand so the first paint of any route ships only what that route needs.
/** The page's own tab title (layout/useRouteTitle.ts). */
const titled = (title: string): RouteHandle => ({ title });

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** The route table of product-rules §2. Paths are matched case-sensitively where the spec names both forms. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      {
        path: '/',
        handle: { title: 'Serverless GPU cloud for AI model APIs', brandFirst: true } satisfies RouteHandle,
        lazy: page(() => import('./pages/home/HomePage')),
      },
      { path: '/signinup', handle: titled('Sign in'), lazy: page(() => import('./pages/signin/SignInUpPage')) },
      { path: '/SignInUp', handle: titled('Sign in'), lazy: page(() => import('./pages/signin/SignInUpPage')) },
      { path: '/Pricing', handle: titled('Pricing'), lazy: page(() => import('./pages/pricing/PricingPage')) },
      { path: '/pricing', handle: titled('Pricing'), lazy: page(() => import('./pages/pricing/PricingPage')) },
      { path: '/Hosting', handle: titled('Hosting'), lazy: page(() => import('./pages/hosting/HostingPage')) },
      { path: '/hosting', handle: titled('Hosting'), lazy: page(() => import('./pages/hosting/HostingPage')) },
      { path: '/SignedOut', handle: titled('Signed out'), lazy: page(() => import('./pages/signin/SignedOutPage')) },
      { path: '/terms_of_service', handle: titled('Terms of Service'), lazy: page(() => import('./pages/policies/TermsPage')) },
      { path: '/privacy_policy', handle: titled('Privacy Policy'), lazy: page(() => import('./pages/policies/PrivacyPage')) },
      { path: '/Subscribe', handle: titled('Subscribe'), lazy: page(() => import('./pages/subscribe/SubscribePage')) },
      { path: '/notification', handle: titled('Notification'), lazy: page(() => import('./pages/system/NotificationPage')) },
      { path: '/Invest', handle: titled('Invest'), lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/company', handle: titled('About us'), lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/Company', handle: titled('About us'), lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/careers', handle: titled('Careers'), lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/APIs', element: <Navigate to="/APIs/Overview" replace /> },
      { path: '/APIs/Overview', lazy: page(() => import('./pages/catalogue/OverviewPage')) },
      { path: '/APIs/overview', lazy: page(() => import('./pages/catalogue/OverviewPage')) },
      { path: '/APIs/service/:serviceId', lazy: page(() => import('./pages/catalogue/ServicePage')) },
      { path: '/APIs/service/:owner/:name', lazy: page(() => import('./pages/catalogue/ServicePage')) },
      {
        // Owner only: RequireAuth asks for sign-in, the server refuses other users (docs/publishing.md).
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [{ path: '/APIs/edit/:serviceId', lazy: page(() => import('./pages/publish/EditServicePage')) }],
      },
      { path: '/404', handle: titled('Page not found'), lazy: page(() => import('./pages/system/NotFoundPage')) },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
  {
    path: '/account',
    lazy: page(() => import('./layout/AccountLayout')),
    children: [
      { index: true, element: <Navigate to="/account/dashboard" replace /> },
      { path: 'dashboard', handle: titled('Dashboard'), lazy: page(() => import('./pages/account/DashboardPage')) },
      { path: 'profile', handle: titled('Profile'), lazy: page(() => import('./pages/account/ProfilePage')) },
      { path: 'billing', handle: titled('Billing'), lazy: page(() => import('./pages/account/BillingPage')) },
      { path: 'hosting', handle: titled('Hosted services'), lazy: page(() => import('./pages/account/HostedServicesPage')) },
      { path: 'hostingActive2', handle: titled('Hosted services'), lazy: page(() => import('./pages/account/HostedServicesPage')) },
      { path: 'support', handle: titled('Support'), lazy: page(() => import('./pages/account/SupportPage')) },
    ],
  },
];

/**
 * Starts fetching the chunks of the page being opened at once, while the app still waits for
 * /config.json, instead of after the first render (docs/deploy.md, "Lean first load").
 */
export function prefetchRoute(pathname: string) {
  for (const match of matchRoutes(routes, pathname) ?? []) {
    const lazy = match.route.lazy;
    if (typeof lazy === 'function') void lazy().catch(() => {});
  }
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}

if (typeof window !== 'undefined') prefetchRoute(window.location.pathname);
