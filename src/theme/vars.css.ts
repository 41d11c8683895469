import { createGlobalThemeContract } from '@vanilla-extract/css';
import { darkValues, type ThemeValues } from './tokens';

type NullShape<T> = { [G in keyof T]: { [K in keyof T[G]]: null } };

function nullShape<T extends Record<string, Record<string, string>>>(values: T): NullShape<T> {
  return Object.fromEntries(
    Object.entries(values).map(([group, tokens]) => [group, Object.fromEntries(Object.keys(tokens).map((k) => [k, null]))]),
  ) as NullShape<T>;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * The one theme contract. A global contract gives stable custom-property names
 * (`--lime-color-primary`, `--lime-space-md`, ...) so a host page can re-theme any widget,
 * shadow DOM included. Its shape is taken from the palette, so the two cannot drift.
 */
export const vars = createGlobalThemeContract(nullShape<ThemeValues>(darkValues), (_value, path) => `lime-${path.map(kebab).join('-')}`);
