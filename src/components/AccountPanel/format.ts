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

/** A whole number with grouping (1,234). */
export function formatNumber(value: number): string {
  return value.toLocaleString();
}

/** A credit amount with its sign (+500, -12). */
export function formatSigned(value: number): string {
  return value > 0 ? `+${formatNumber(value)}` : formatNumber(value);
}
