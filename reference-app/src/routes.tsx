import { createBrowserRouter, matchRoutes, Navigate, Outlet, type RouteObject } from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './auth/RequireAuth';

// Pages load on demand so the first paint of any route ships only what that route needs.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** The route table of product-rules §2. Paths are matched case-sensitively where the spec names both forms. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', lazy: page(() => import('./pages/home/HomePage')) },
      { path: '/signinup', lazy: page(() => import('./pages/signin/SignInUpPage')) },
      { path: '/SignInUp', lazy: page(() => import('./pages/signin/SignInUpPage')) },
      { path: '/Pricing', lazy: page(() => import('./pages/pricing/PricingPage')) },
      { path: '/pricing', lazy: page(() => import('./pages/pricing/PricingPage')) },
      { path: '/Hosting', lazy: page(() => import('./pages/hosting/HostingPage')) },
      { path: '/hosting', lazy: page(() => import('./pages/hosting/HostingPage')) },
      { path: '/SignedOut', lazy: page(() => import('./pages/signin/SignedOutPage')) },
      { path: '/terms_of_service', lazy: page(() => import('./pages/policies/TermsPage')) },
      { path: '/privacy_policy', lazy: page(() => import('./pages/policies/PrivacyPage')) },
      { path: '/Subscribe', lazy: page(() => import('./pages/subscribe/SubscribePage')) },
      { path: '/notification', lazy: page(() => import('./pages/system/NotificationPage')) },
      { path: '/Invest', lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/company', lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/Company', lazy: page(() => import('./pages/company/CompanyPage')) },
      { path: '/careers', lazy: page(() => import('./pages/company/CompanyPage')) },
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
      { path: '/404', lazy: page(() => import('./pages/system/NotFoundPage')) },
      { path: '*', element: <Navigate to="/404" replace /> },
    ],
  },
  {
    path: '/account',
    lazy: page(() => import('./layout/AccountLayout')),
    children: [
      { index: true, element: <Navigate to="/account/dashboard" replace /> },
      { path: 'dashboard', lazy: page(() => import('./pages/account/DashboardPage')) },
      { path: 'profile', lazy: page(() => import('./pages/account/ProfilePage')) },
      { path: 'billing', lazy: page(() => import('./pages/account/BillingPage')) },
      { path: 'hosting', lazy: page(() => import('./pages/account/HostedServicesPage')) },
      { path: 'hostingActive2', lazy: page(() => import('./pages/account/HostedServicesPage')) },
      { path: 'support', lazy: page(() => import('./pages/account/SupportPage')) },
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
