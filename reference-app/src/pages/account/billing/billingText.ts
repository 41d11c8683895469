import type { CheckoutDetail, Receipt } from '@limelight/widgets/api';
import { formatCredits } from '@limelight/widgets/run';

// The billing page's words and documents, apart from rendering (docs/payments.md): what the
// confirmation after paying says, and the receipt a user downloads.

/** An amount in cents with its currency, in the visitor's locale ('€4.99', '-€1.50'). */
export function formatMoney(minor: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);
}

const planTitle = (key: string | null) => (key ? key.charAt(0).toUpperCase() + key.slice(1) : '');

export type Confirmation =
  | { tone: 'success'; title: string; detail: string }
  | { tone: 'pending'; title: string; detail: string }
  | { tone: 'failed'; title: string; detail: string };

/**
 * The confirmation after returning from checkout: what was bought and for how much, and the new
 * balance or plan. A checkout still open (the provider's confirmation not yet in) is pending.
 */
export function confirmationOf(
  checkout: CheckoutDetail,
  after: { balance?: number | null; periodEnd?: string | null; formatDate: (iso: string) => string },
): Confirmation {
  const what = checkout.purpose === 'credits' ? `${formatCredits(checkout.quantity)} credits` : `the ${planTitle(checkout.plan_type)} plan`;
  const price = formatMoney(checkout.amount_minor, checkout.currency);
  if (checkout.status === 'open') {
    return { tone: 'pending', title: 'Confirming your payment…', detail: `We are waiting for the payment of ${price} for ${what}.` };
  }
  if (checkout.status === 'expired') {
    return {
      tone: 'failed',
      title: 'Payment not completed',
      detail: `The checkout for ${what} was cancelled or expired; nothing was charged.`,
    };
  }
  if (checkout.purpose === 'credits') {
    const balance = after.balance == null ? '' : ` Your balance is now ${formatCredits(after.balance, { balance: true })} credits.`;
    return { tone: 'success', title: 'Payment received', detail: `You bought ${what} for ${price}.${balance}` };
  }
  const until = after.periodEnd ? ` It renews on ${after.formatDate(after.periodEnd)}.` : '';
  return { tone: 'success', title: 'Payment received', detail: `You are now on ${what} (${price} per month).${until}` };
}

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A receipt as a standalone HTML document (to download or print), every value escaped. */
export function receiptDocument(receipt: Receipt, seller: { brand: string; formatDate: (iso: string) => string }): string {
  const rows: Array<[string, string]> = [
    ['Receipt number', receipt.id],
    ['Date', seller.formatDate(receipt.date)],
    ['Description', receipt.description],
    ['Amount', formatMoney(receipt.amount_minor, receipt.currency)],
    ['Status', receiptStatusText(receipt)],
  ];
  const body = rows.map(([k, v]) => `<tr><th scope="row">${escape(k)}</th><td>${escape(v)}</td></tr>`).join('');
  const title = `${seller.brand} receipt ${receipt.id}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title></head><body><h1>${escape(seller.brand)} receipt</h1><table>${body}</table></body></html>`;
}

export const receiptStatusText = (receipt: Receipt) => (receipt.status === 'refunded' ? 'Refunded' : 'Paid');

/** The download's file name: receipt-<number>.html. */
export const receiptFileName = (receipt: Receipt) => `receipt-${receipt.id.replace(/[^\w-]/g, '_')}.html`;
