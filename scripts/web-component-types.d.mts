import type { WidgetDefinition } from '../src/web-components/types';

export declare function interfaceName(tag: string): string;
export declare function elementsDeclarations(definitions: readonly WidgetDefinition[]): string;
export declare function reactDeclarations(definitions: readonly WidgetDefinition[]): string;
export declare function vueDeclarations(definitions: readonly WidgetDefinition[]): string;
export declare function writeElementTypes(definitions: readonly WidgetDefinition[], dir: string): void;
