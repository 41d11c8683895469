import { accountStrings } from './account';
import { authStrings } from './auth';
import { codeStrings } from './code';
import { commonStrings } from './common';
import { notificationStrings } from './notifications';
import { pricingStrings } from './pricing';
import { runnerStrings } from './runner';
import { searchStrings } from './search';

/**
 * Every user-visible string, grouped by widget. The spec's English texts are the defaults
 * (copied letter for letter, typos included); embeds override any subset through
 * `PlatformProvider`'s `strings` prop, DocSearch `translations` style.
 */
export const defaultStrings = {
  common: commonStrings,
  notifications: notificationStrings,
  search: searchStrings,
  auth: authStrings,
  code: codeStrings,
  pricing: pricingStrings,
  account: accountStrings,
  runner: runnerStrings,
};

/** The strings table: every text a widget shows, by area. */
export type Strings = typeof defaultStrings;

/** An object type with every property, at every depth, optional. */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
/** Replacements for some entries of the strings table (`PlatformProvider`'s `strings`). */
export type StringOverrides = DeepPartial<Strings>;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep-merges overrides over the defaults; unknown keys are ignored, wrong types refused. */
export function mergeStrings(overrides: StringOverrides | undefined, base: Strings = defaultStrings): Strings {
  if (!overrides) return base;
  const merge = (b: Record<string, unknown>, o: Record<string, unknown>, path: string): Record<string, unknown> => {
    const out: Record<string, unknown> = { ...b };
    for (const [key, value] of Object.entries(o)) {
      if (!(key in b) || value === undefined) continue;
      const here = path ? `${path}.${key}` : key;
      if (isPlainObject(b[key])) {
        if (!isPlainObject(value)) throw new TypeError(`strings.${here} must be an object of strings`);
        out[key] = merge(b[key] as Record<string, unknown>, value, here);
      } else {
        if (typeof value !== 'string') throw new TypeError(`strings.${here} must be a string, got ${typeof value}`);
        out[key] = value;
      }
    }
    return out;
  };
  return merge(base as unknown as Record<string, unknown>, overrides as Record<string, unknown>, '') as unknown as Strings;
}

/** Fills `{name}` placeholders: formatString('User {email} exists', { email }) . */
export function formatString(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}
