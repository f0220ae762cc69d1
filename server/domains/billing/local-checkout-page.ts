/**
 * The local checkout page (local mode only): the order and two plain forms, Pay and Cancel, that
 * work without JavaScript. It stands in for Stripe's hosted page. Each form carries the
 * checkout's form token (local-checkout-guard.ts); a refused post gets the refusal page.
 */
import site from '../../../content/site.json' with { type: 'json' };
import { findPack, findPlan } from '../../../shared/billing.ts';
import { formatUsd } from '../../../shared/promotions.ts';
import type { CheckoutSessionRow } from '../../db/schema.ts';
import { LOCAL_CHECKOUT_TOKEN_FIELD } from './local-checkout-guard.ts';

const escape = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The checkout page of `checkout`, whose forms post `formToken`. */
export function renderLocalCheckoutPage(
  checkout: CheckoutSessionRow,
  email: string,
  formToken: string,
): string {
  const price = `$${(checkout.amountCents / 100).toFixed(2)}`;
  const name =
    checkout.kind === 'subscription'
      ? `${findPlan(checkout.itemId)?.name ?? checkout.itemId} plan`
      : `${findPack(checkout.itemId)?.name ?? checkout.itemId} credit pack`;
  const period =
    checkout.kind === 'subscription'
      ? checkout.billingCycle === 'yearly'
        ? ' / year'
        : ' / month'
      : '';
  const what =
    checkout.kind === 'subscription'
      ? `${checkout.credits.toLocaleString('en-US')} credits every month, renews until you cancel`
      : `${checkout.credits.toLocaleString('en-US')} credits, never expire`;
  // A promotion code's discount (issue 37): the total is already after it.
  const discount =
    checkout.discountCents > 0
      ? `<dt>Promotion code</dt><dd>−${formatUsd(checkout.discountCents)}</dd>`
      : '';
  const token = `<input type="hidden" name="${LOCAL_CHECKOUT_TOKEN_FIELD}" value="${escape(formToken)}">`;
  const state =
    checkout.status === 'open'
      ? `<form method="post" action="/checkout/local/${escape(checkout.id)}/pay">${token}<button class="pay" type="submit">Pay ${price}</button></form>
         <form method="post" action="/checkout/local/${escape(checkout.id)}/cancel">${token}<button class="cancel" type="submit">Cancel and go back</button></form>`
      : checkout.status === 'paid'
        ? `<p class="note">This order is already paid.</p><a class="pay" href="${escape(checkout.successUrl.replace('{CHECKOUT_SESSION_ID}', checkout.id))}">Continue</a>`
        : `<p class="note">This checkout was cancelled.</p><a class="cancel" href="/pricing">Back to pricing</a>`;
  return page(`<span class="badge">Local test checkout: no real payment</span>
<h1>${escape(name)}</h1>
<p class="note">${escape(what)}</p>
<dl><dt>Account</dt><dd>${escape(email)}</dd>${discount}<dt>Total</dt><dd class="total">${price}${period}</dd></dl>
${state}`);
}

/**
 * What a refused Pay or Cancel post answers (403): nothing was paid or cancelled, and the way
 * back is a new checkout from the pricing page at `pricingUrl` (PUBLIC_SITE_URL's).
 */
export function renderLocalCheckoutRefusal(pricingUrl: string): string {
  return page(`<span class="badge">Local test checkout: no real payment</span>
<h1>This checkout could not be confirmed</h1>
<p class="note">The request did not come from this site's checkout page, so nothing was paid or cancelled. Start again from the pricing page.</p>
<a class="pay" href="${escape(pricingUrl)}">Go to the pricing page</a>`);
}

function page(main: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Checkout · ${escape(site.brand)}</title>
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#121a22;color:#e8edf3;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;padding:16px;box-sizing:border-box}
main{width:100%;max-width:420px;background:#1a2430;border:1px solid #2c3a4a;border-radius:16px;padding:28px}
h1{font-size:1.25rem;margin:0 0 4px}.badge{display:inline-block;font-size:.75rem;font-weight:600;color:#121a22;background:#f5c451;border-radius:999px;padding:2px 10px;margin-bottom:16px}
dl{display:grid;grid-template-columns:auto 1fr;gap:6px 16px;margin:20px 0}dt{color:#9fb0c3}dd{margin:0;text-align:right;min-width:0;overflow-wrap:anywhere}
.total{font-size:1.5rem;font-weight:700}.pay,.cancel{display:block;width:100%;box-sizing:border-box;text-align:center;text-decoration:none;font:inherit;font-weight:600;border-radius:999px;padding:12px;margin-top:12px;cursor:pointer}
.pay{background:#8a7cff;color:#121a22;border:0}.pay:hover{background:#6c5ce7;color:#fff}
.cancel{background:transparent;color:#e8edf3;border:1px solid #3a4a5c}.cancel:hover{border-color:#8a7cff}
:focus-visible{outline:3px solid #b7adff;outline-offset:2px}.note{color:#9fb0c3;font-size:.9rem}
</style></head>
<body><main>
${main}
</main></body></html>`;
}
