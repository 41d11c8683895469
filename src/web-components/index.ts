/**
 * `import '@limelight/widgets/web-components'` registers every element (a side effect, listed
 * in package.json `sideEffects`). The classes and `define*` functions are exported for pages
 * that want to register only some elements, or under other names.
 */
import { defineAll } from './define';
import { registerStyles } from './styles';
import { widgetCss } from './widget-styles';

registerStyles(widgetCss);
defineAll();

export { defineAll, defineElement, defineServiceSearch, defineAuthDialog } from './define';
export { LimeServiceSearchElement } from './ServiceSearchElement';
export { LimeAuthDialogElement } from './AuthDialogElement';
export { defineWidget } from './defineWidget';
export { registerStyles, adoptStyles } from './styles';
export type { WidgetContext, WidgetRenderProps } from './defineWidget';
export { widgetDefinitions, serviceSearchDefinition, authDialogDefinition } from './definitions';
export type { WidgetDefinition, AttributeDefinition, EventDefinition, MethodDefinition } from './types';
