import { describe, expect, it } from 'vitest';
import type { CheckoutDetail, Receipt } from '../../../src/api/types';
import {
  confirmationOf,
  formatMoney,
  receiptDocument,
  receiptFileName,
} from '../../../reference-app/src/pages/account/billing/billingText';

// What the billing page says after paying and what a downloaded receipt holds (docs/payments.md).

const checkout = (over: Partial<CheckoutDetail>): CheckoutDetail => ({
  id: 'cs_sandbox_abc',
  status: 'complete',
  purpose: 'credits',
  quantity: 1000,
  plan_type: null,
  amount_minor: 1000,
  currency: 'EUR',
  completed_at: '2026-11-24T08:00:00Z',
  ...over,
});
const formatDate = (iso: string) => iso.slice(0, 10);

describe('confirmationOf', () => {
  it('credits: what was bought, the price and the new balance', () => {
    expect(confirmationOf(checkout({}), { balance: 1500, formatDate })).toEqual({
      tone: 'success',
      title: 'Payment received',
      detail: `You bought ${(1000).toLocaleString()} credits for ${formatMoney(1000, 'EUR')}. Your balance is now ${(1500).toLocaleString()} credits.`,
    });
  });

  it('the new balance reads as money, at most 2 decimals (issue 50, item 7)', () => {
    expect(confirmationOf(checkout({}), { balance: 1097.8614, formatDate }).detail).toMatch(/Your balance is now 1,097\.86 credits\.$/);
  });

  it('a plan: the plan, its monthly price and the renewal date', () => {
    const plan = checkout({ purpose: 'subscription', quantity: 1, plan_type: 'pro', amount_minor: 1999 });
    expect(confirmationOf(plan, { periodEnd: '2026-12-24T08:00:00Z', formatDate }).detail).toBe(
      `You are now on the Pro plan (${formatMoney(1999, 'EUR')} per month). It renews on 2026-12-24.`,
    );
  });

  it('an open checkout is pending, an expired one says nothing was charged', () => {
    expect(confirmationOf(checkout({ status: 'open' }), { formatDate }).tone).toBe('pending');
    expect(confirmationOf(checkout({ status: 'expired' }), { formatDate })).toMatchObject({
      tone: 'failed',
      detail: expect.stringContaining('nothing was charged'),
    });
  });
});

describe('receiptDocument', () => {
  const receipt: Receipt = {
    id: 'cs_sandbox_<x>',
    date: '2026-11-24T08:00:00Z',
    kind: 'plan_change',
    description: 'Change to the <b>Plus</b> plan',
    amount_minor: -750,
    currency: 'EUR',
    status: 'refunded',
  };

  it('holds number, date, description, amount and status, every value escaped', () => {
    const html = receiptDocument(receipt, { brand: 'Limelight', formatDate });
    expect(html).toContain('<th scope="row">Receipt number</th><td>cs_sandbox_&lt;x&gt;</td>');
    expect(html).toContain('<td>Change to the &lt;b&gt;Plus&lt;/b&gt; plan</td>');
    expect(html).toContain(`<td>${formatMoney(-750, 'EUR')}</td>`);
    expect(html).toContain('<td>Refunded</td>');
    expect(html).not.toContain('<b>');
    expect(receiptFileName(receipt)).toBe('receipt-cs_sandbox__x_.html');
  });
});
