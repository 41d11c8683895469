// Every element's definition (data only): for the manifest script, the docs and index.ts.
// Elements import their own file from ./definitions/, so a bundle carries only its own.
import type { WidgetDefinition } from './types';
import { authDialogDefinition } from './definitions/authDialog';
import { codeViewerDefinition } from './definitions/codeViewer';
import { pricingCalculatorDefinition } from './definitions/pricingCalculator';
import { serviceRunnerDefinition } from './definitions/serviceRunner';
import { serviceSearchDefinition } from './definitions/serviceSearch';
import { accountPanelDefinitions } from './definitions/accountPanels';

export * from './definitions/accountPanels';
export { authDialogDefinition, codeViewerDefinition, pricingCalculatorDefinition, serviceSearchDefinition, serviceRunnerDefinition };

/** Every element, in registration order. */
export const widgetDefinitions: readonly WidgetDefinition[] = [
  serviceSearchDefinition,
  authDialogDefinition,
  codeViewerDefinition,
  pricingCalculatorDefinition,
  serviceRunnerDefinition,
  ...accountPanelDefinitions,
];
