// Number and date formats of the account panels, in the visitor's locale.

/** A date as the visitor's locale writes it ('Mar 4, 2026'); the raw text when unparsable. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleDateString(undefined, { dateStyle: 'medium' } as Intl.DateTimeFormatOptions);
}

/** A date and time ('Mar 4, 2026, 10:15 AM'). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * A month key ('2026-11', as the usage API names months) in the visitor's locale's month and year
 * ('Nov 2026'); the key itself when it is not one.
 */
export function formatMonth(key: string, style: 'short' | 'long' = 'short'): string {
  const match = /^(\d{4})-(\d{2})$/.exec(key);
  if (!match) return key;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1));
  return new Intl.DateTimeFormat(undefined, { month: style, year: 'numeric', timeZone: 'UTC' }).format(date);
}

/** An amount in minor units (cents) with its currency ('€4.99', '-€1.50'). */
export function formatMoney(minor: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}
