/**
 * The only place that calls `customElements.define`. Registration is guarded, so two script
 * tags (or a script tag plus a bundler import) defining the same element do not throw: the
 * first definition wins and later ones are ignored.
 *
 * It takes the element class rather than importing every element itself: the script-tag entries
 * each import one element, and a module that imported all of them would put every widget in
 * every bundle (bundlers split chunks by the static import graph, not by what is used).
 * `index.ts` registers all elements.
 */

/** An element class built by `defineWidget` (it carries its definition). */
export type WidgetElementClass = CustomElementConstructor & { readonly definition: { readonly tag: string } };

/**
 * Registers `element` under its tag (or `name`) unless that name is taken.
 * Returns the class registered under the name.
 */
export function defineElement(element: WidgetElementClass, name: string = element.definition.tag): CustomElementConstructor | undefined {
  if (typeof customElements === 'undefined') return undefined;
  const existing = customElements.get(name);
  if (existing) {
    if (process.env.NODE_ENV !== 'production' && existing !== element) {
      console.warn(`[limelight] <${name}> is already defined (another copy of the script?); keeping the first.`);
    }
    return existing;
  }
  customElements.define(name, element);
  return element;
}
