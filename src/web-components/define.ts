/**
 * The only place that registers custom elements. Every registration is guarded, so two script
 * tags (or a script tag plus a bundler import) defining the same element do not throw: the
 * first definition wins and later ones are ignored.
 */
import { LimeAuthDialogElement } from './AuthDialogElement';
import { LimeServiceSearchElement } from './ServiceSearchElement';

/** Registers `constructor` as `name` unless that name is taken. Returns the class in use. */
export function defineElement(name: string, constructor: CustomElementConstructor): CustomElementConstructor | undefined {
  if (typeof customElements === 'undefined') return undefined;
  const existing = customElements.get(name);
  if (existing) {
    if (process.env.NODE_ENV !== 'production' && existing !== constructor) {
      console.warn(`[limelight] <${name}> is already defined by another copy; keeping the first.`);
    }
    return existing;
  }
  customElements.define(name, constructor);
  return constructor;
}

export const defineServiceSearch = () => defineElement('lime-service-search', LimeServiceSearchElement);
export const defineAuthDialog = () => defineElement('lime-auth-dialog', LimeAuthDialogElement);

/** Registers every element. */
export function defineAll(): void {
  defineServiceSearch();
  defineAuthDialog();
}
