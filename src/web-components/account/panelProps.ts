import type { HeadingLevel } from '../../components/AccountPanel';

const levels = new Set<number>([0, 2, 3, 4, 5, 6]);

/** The `heading-level` attribute as a panel prop (2 when absent or not a level). */
export function headingLevelOf(value: unknown): HeadingLevel {
  return typeof value === 'number' && levels.has(value) ? (value as HeadingLevel) : 2;
}
