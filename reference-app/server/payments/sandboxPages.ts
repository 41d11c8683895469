import { Hono } from 'hono';
import { escapeHtml } from '../mail/templates';
import type { PaymentService } from './service';

// The sandbox provider's hosted checkout page: what Stripe Checkout is for the real provider.
// Plain HTML forms, no script; "Pay" settles the checkout, "Cancel" expires it.

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>
body{font-family:system-ui,sans-serif;background:#15081f;color:#f3eefc;display:grid;place-items:center;min-height:100vh;margin:0}
main{background:#231433;padding:32px;border-radius:12px;max-width:420px;width:100%}
h1{font-size:20px;margin-top:0}.amount{font-size:32px;font-weight:700;margin:16px 0}
.note{font-size:13px;color:#b9a9cf}button{font:inherit;padding:10px 18px;border-radius:6px;border:0;cursor:pointer;margin-right:8px}
.pay{background:#b7f34a;color:#15081f;font-weight:600}.cancel{background:transparent;color:#f3eefc;border:1px solid #6b5a80}
</style></head><body><main>${body}</main></body></html>`;
}

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).format(minor / 100);

export function sandboxCheckoutRoutes(payments: PaymentService) {
  const app = new Hono();

  app.get('/checkout/:id', async (c) => {
    const checkout = await payments.getCheckout(c.req.param('id'));
    if (!checkout)
      return c.html(page('Checkout not found', '<h1>Checkout not found</h1><p class="note">This payment link is unknown.</p>'), 404);
    const what = checkout.purpose === 'credits' ? `${checkout.quantity} credits` : `${checkout.plan_type} plan (monthly)`;
    if (checkout.status !== 'open') {
      const back = checkout.status === 'complete' ? checkout.success_url : checkout.cancel_url;
      return c.html(
        page(
          'Checkout',
          `<h1>${checkout.status === 'complete' ? 'Paid' : 'Expired'}</h1><p>${escapeHtml(what)}</p><p class="amount">${money(checkout.amount_minor, checkout.currency)}</p>${back ? `<p><a href="${escapeHtml(back)}" style="color:#b7f34a">Back to the site</a></p>` : ''}`,
        ),
      );
    }
    const id = encodeURIComponent(checkout.id);
    return c.html(
      page(
        'Sandbox checkout',
        `<h1>Sandbox checkout</h1><p>${escapeHtml(what)}</p><p class="amount">${money(checkout.amount_minor, checkout.currency)}</p>
<p class="note">Test mode: no card is charged. Paying settles the checkout as a card payment would.</p>
<form method="post" action="/sandbox/checkout/${id}/pay" style="display:inline"><button class="pay" type="submit">Pay</button></form>
<form method="post" action="/sandbox/checkout/${id}/cancel" style="display:inline"><button class="cancel" type="submit">Cancel</button></form>`,
      ),
    );
  });

  app.post('/checkout/:id/pay', async (c) => {
    const checkout = await payments.getCheckout(c.req.param('id'));
    if (!checkout) return c.html(page('Checkout not found', '<h1>Checkout not found</h1>'), 404);
    await payments.completeCheckout(checkout.id, null, null);
    return c.redirect(checkout.success_url ?? `/sandbox/checkout/${encodeURIComponent(checkout.id)}`, 303);
  });

  app.post('/checkout/:id/cancel', async (c) => {
    const checkout = await payments.getCheckout(c.req.param('id'));
    if (!checkout) return c.html(page('Checkout not found', '<h1>Checkout not found</h1>'), 404);
    await payments.expireCheckout(checkout.id);
    return c.redirect(checkout.cancel_url ?? `/sandbox/checkout/${encodeURIComponent(checkout.id)}`, 303);
  });

  return app;
}
