/**
 * The description of a custom element as data: attributes, events, methods. The wrapper layer
 * builds the element from it and `scripts/custom-elements-manifest.mjs` writes
 * `custom-elements.json` from it, so the manifest cannot drift from the elements. Kept free of
 * imports so the manifest script can load it in Node.
 */
export type AttributeType = 'string' | 'boolean' | 'number' | 'json';

export interface AttributeDefinition {
  /** Attribute name, kebab-case. */
  readonly name: string;
  /** The matching JavaScript property, camelCase. */
  readonly property: string;
  readonly type: AttributeType;
  readonly description: string;
  /** Default as written in the manifest and docs (a description when it depends on the page). */
  readonly default?: string;
  /** Allowed values, when the attribute is an enumeration. */
  readonly values?: readonly string[];
  /** Type text for the manifest when more precise than `type` (e.g. `0 | 1 | 2`). */
  readonly typeText?: string;
}

export interface EventDefinition {
  /** Event type, as given to addEventListener. */
  readonly name: string;
  readonly description: string;
  /** TypeScript text of `event.detail`. */
  readonly detail: string;
  /** Whether `preventDefault()` means something (it then cancels the default action). */
  readonly cancelable?: boolean;
}

export interface MethodDefinition {
  readonly name: string;
  readonly description: string;
  readonly parameters?: readonly { readonly name: string; readonly type: string; readonly description: string }[];
  readonly returns?: string;
}

/** A custom element described as data: its tag, attributes, events and methods. */
export interface WidgetDefinition {
  /** Custom element name (`lime-` prefix). */
  readonly tag: string;
  /** Class name of the element constructor (and its manifest declaration). */
  readonly className: string;
  readonly description: string;
  readonly attributes: readonly AttributeDefinition[];
  readonly events: readonly EventDefinition[];
  readonly methods: readonly MethodDefinition[];
  /** CSS custom properties of this widget besides the theme tokens (which every element takes). */
  readonly cssProperties?: readonly { readonly name: string; readonly description: string; readonly default?: string }[];
  /** Entry file name under dist/cdn (without `.js`). */
  readonly bundle: string;
}

type ValueOf<T extends AttributeType> = T extends 'boolean' ? boolean : T extends 'number' ? number : T extends 'json' ? unknown : string;

/** Parsed attribute values keyed by property name, as the render function receives them. */
export type AttributeValues<D extends WidgetDefinition> = {
  [A in D['attributes'][number] as A['property']]?: ValueOf<A['type']>;
};
