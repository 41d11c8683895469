// Public React API: re-exports only. Each line is also its own entry point
// (`@limelight/widgets/<name>`), so apps that import one widget load only that widget.
export * from './config';
export * from './api';
export * from './notifications';
export * from './auth';
export * from './catalogue';
export * from './components/MessageOverlay';
export * from './components/ServiceSearch';
export * from './components/AuthDialog';
export * from './components/CodeViewer';
export * from './components/PricingCalculator';
export * from './components/PlanCards';
