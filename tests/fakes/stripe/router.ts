/** The Stripe fake's API routes: a method and path to the resource handler that answers it. */
import {
  createSession,
  expireSession,
  getSession,
  renderSession,
  renderSessionLineItems,
} from './checkout-sessions.ts';
import { routeBillingPortal } from './billing-portal.ts';
import { routePromotions } from './promotions.ts';
import { routeCustomers } from './customers.ts';
import { ApiError, noSuch } from './errors.ts';
import { applyExpand, renderById } from './expand.ts';
import { checkKeys, type FormObject, type Json } from './form.ts';
import { routeInvoicePayments } from './invoice-payments.ts';
import { routeRefunds } from './refunds.ts';
import type { RequestContext, StripeStore } from './state.ts';
import {
  cancelSubscription,
  getSubscription,
  renderSubscription,
  updateSubscription,
} from './subscriptions.ts';

/**
 * Answers one API call. Handlers return the object's wire JSON; `expand[]` is applied here, last,
 * as Stripe does once the call has done its work.
 */
export function route(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
  ctx: RequestContext,
): Json {
  let m: RegExpExecArray | null;
  const expanded = (obj: Json) => applyExpand(store, obj, params);
  if (path === '/v1/checkout/sessions' && method === 'POST') {
    return expanded(createSession(store, params));
  }
  if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === 'GET') {
    checkKeys(params, '', ['expand'], ['expand']);
    const session = getSession(store, decodeURIComponent(m[1] ?? ''));
    return expanded(renderSession(session, store.url));
  }
  if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(path)) && method === 'GET') {
    return renderSessionLineItems(getSession(store, decodeURIComponent(m[1] ?? '')));
  }
  if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === 'POST') {
    return expanded(expireSession(store, decodeURIComponent(m[1] ?? ''), params, ctx));
  }
  if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
    const id = decodeURIComponent(m[1] ?? '');
    if (method === 'GET') {
      checkKeys(params, '', ['expand'], ['expand']);
      return expanded(renderSubscription(getSubscription(store, id)));
    }
    if (method === 'DELETE') return expanded(cancelSubscription(store, id, params, ctx));
    if (method === 'POST') return expanded(updateSubscription(store, id, params, ctx));
  }
  const invoicePayments = routeInvoicePayments(store, method, path, params);
  if (invoicePayments) return invoicePayments;
  const portal = routeBillingPortal(store, method, path, params);
  if (portal) return expanded(portal);
  const promotion = routePromotions(store, method, path, params);
  if (promotion) return expanded(promotion);
  const created =
    routeCustomers(store, method, path, params) ?? routeRefunds(store, method, path, params, ctx);
  if (created) return expanded(created);
  // prettier-ignore
  const retrievable: Array<[RegExp, string, Map<string, unknown>]> = [
    [/^\/v1\/customers\/([^/]+)$/, 'customer', store.customers],
    [/^\/v1\/invoices\/([^/]+)$/, 'invoice', store.invoices],
    [/^\/v1\/payment_intents\/([^/]+)$/, 'payment_intent', store.paymentIntents],
    [/^\/v1\/charges\/([^/]+)$/, 'charge', store.charges],
  ];
  for (const [pattern, kind, objects] of retrievable) {
    if ((m = pattern.exec(path)) && method === 'GET') {
      checkKeys(params, '', ['expand'], ['expand']);
      const id = decodeURIComponent(m[1] ?? '');
      const found = objects.has(id) ? renderById(store, id) : undefined;
      if (!found) throw noSuch(kind, id, 'id');
      return expanded(found);
    }
  }
  throw new ApiError(404, {
    type: 'invalid_request_error',
    message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
  });
}
