// @limelight/widgets: the components, the provider they read, and the hooks a React app needs
// around them. Engines, clients and helpers have their own entries (`@limelight/widgets/api`,
// `/auth`, `/catalogue`, `/notifications`, ...), so an app that imports one widget loads only it.
export { PlatformProvider, usePlatform, useStrings } from './config/PlatformProvider';
export type { PlatformConfig, PlatformProviderProps } from './config/PlatformProvider';
export { AuthProvider, useAuth, useSession } from './auth/AuthProvider';
export type { AuthProviderProps } from './auth/AuthProvider';
export { useRequireAuth } from './auth/useRequireAuth';
export { CatalogueProvider, useCatalogue } from './catalogue/react';
export type { CatalogueProviderProps } from './catalogue/react';
export { notify } from './notifications/notify';
export { useGlobalEvents } from './notifications/useGlobalEvents';
export { usePlatformClients } from './config/usePlatformClients';
export { useApiClient } from './config/useApiClient';
export { useApiResource } from './config/useApiResource';
export type { ApiResource, ResourceStatus, UseApiResourceOptions } from './config/useApiResource';
export type { ApiResult } from './api/result';
export { MessageOverlay } from './components/MessageOverlay';
export type { MessageOverlayProps } from './components/MessageOverlay';
export { ServiceSearch } from './components/ServiceSearch';
export type { ServiceSearchProps, ServiceSearchSelectEvent, ServiceSearchSubmitEvent } from './components/ServiceSearch';
export { AuthDialog } from './components/AuthDialog';
export type { AuthDialogProps, AuthScreen } from './components/AuthDialog';
export { CodeViewer } from './components/CodeViewer';
export type { CodeViewerProps } from './components/CodeViewer';
export { PricingCalculator } from './components/PricingCalculator';
export type { PricingCalculatorProps, PricingCalculatorValue } from './components/PricingCalculator';
export { PlanCards } from './components/PlanCards';
export type { PlanCardsProps } from './components/PlanCards';
