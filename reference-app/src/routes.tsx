import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { PublicLayout } from './layout/PublicLayout';
import { RequireAuth } from './auth/RequireAuth';

// Pages load on demand so the first paint of any route ships only what that route needs.
const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default });

/** The route table of spec §2. Paths are matched case-sensitively where the spec names both forms. */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: '/', lazy: page(() => import('./pages/HomePage')) },
      { path: '/signinup', lazy: page(() => import('./pages/SignInUpPage')) },
      { path: '/SignInUp', lazy: page(() => import('./pages/SignInUpPage')) },
      { path: '/Pricing', lazy: page(() => import('./pages/PricingPage')) },
      { path: '/pricing', lazy: page(() => import('./pages/PricingPage')) },
      { path: '/Hosting', lazy: page(() => import('./pages/HostingPage')) },
      { path: '/hosting', lazy: page(() => import('./pages/HostingPage')) },
      { path: '/SignedOut', lazy: page(() => import('./pages/SignedOutPage')) },
      { path: '/terms_of_service', lazy: page(() => import('./pages/TermsPage')) },
      { path: '/privacy_policy', lazy: page(() => import('./pages/PrivacyPage')) },
      { path: '/Subscribe', lazy: page(() => import('./pages/SubscribePage')) },
      { path: '/notification', lazy: page(() => import('./pages/NotificationPage')) },
      { path: '/Invest', lazy: page(() => import('./pages/CompanyPage')) },
      { path: '/company', lazy: page(() => import('./pages/CompanyPage')) },
      { path: '/Company', lazy: page(() => import('./pages/CompanyPage')) },
      { path: '/careers', lazy: page(() => import('./pages/CompanyPage')) },
      { path: '/APIs', element: <Navigate to="/APIs/Overview" replace /> },
      { path: '/APIs/Overview', lazy: page(() => import('./pages/OverviewPage')) },
      { path: '/APIs/overview', lazy: page(() => import('./pages/OverviewPage')) },
      { path: '/APIs/service/:serviceId', lazy: page(() => import('./pages/ServicePage')) },
      { path: '/APIs/service/:owner/:name', lazy: page(() => import('./pages/ServicePage')) },
      {
        path: '/APIs/edit/:serviceId',
        element: (
          <RequireAuth>
            <EditServiceRoute />
          </RequireAuth>
        ),
      },
      { path: '/404', lazy: page(() => import('./pages/NotFoundPage')) },
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
      { path: 'hosting', lazy: page(() => import('./pages/account/HostingPage')) },
      { path: 'hostingActive2', lazy: page(() => import('./pages/account/HostingPage')) },
      { path: 'support', lazy: page(() => import('./pages/account/SupportPage')) },
    ],
  },
];

import { lazy, Suspense } from 'react';
const EditServicePage = lazy(() => import('./pages/EditServicePage'));
function EditServiceRoute() {
  return (
    <Suspense fallback={null}>
      <EditServicePage />
    </Suspense>
  );
}

export function createAppRouter() {
  return createBrowserRouter(routes);
}
