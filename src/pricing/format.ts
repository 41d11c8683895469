// Money formats of the pricing views. GPU prices are in US dollars (product-rules §3
// customer_price_per_s_usd); plan prices carry their own currency (product-rules §9).

const usdWhole = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
const usdPerSecond = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 5,
  maximumFractionDigits: 6,
});
const usdPerHour = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const plainInteger = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** The monthly estimate, already rounded to whole dollars: `$1,234`. */
export function formatMonthlyCost(usd: number): string {
  return usdWhole.format(usd);
}

/** `$0.00016` */
export function formatPricePerSecond(usd: number): string {
  return usdPerSecond.format(usd);
}

/** The per-second price times 3600: `$0.58`. */
export function formatPricePerHour(usdPerSecondPrice: number): string {
  return usdPerHour.format(usdPerSecondPrice * 3600);
}

/** Limits in error messages: `1,000,000`. */
export function formatLimit(n: number): string {
  return plainInteger.format(n);
}

/** Currency symbol for a plan price: EUR -> €, USD -> $. */
export function currencySymbol(currency: string): string {
  const part = new Intl.NumberFormat('en-US', { style: 'currency', currency, currencyDisplay: 'narrowSymbol' })
    .formatToParts(0)
    .find((p) => p.type === 'currency');
  return part?.value ?? currency;
}
