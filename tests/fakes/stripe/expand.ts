/** `expand[]` for the Stripe fake: ids in an answer replaced by the objects they name. */
import { renderSession, renderSessionLineItems } from './checkout-sessions.ts';
import { renderCustomer } from './customers.ts';
import { invalid } from './errors.ts';
import { readArray, type FormObject, type Json } from './form.ts';
import { renderInvoice } from './invoices.ts';
import { renderCharge, renderPaymentIntent } from './payments.ts';
import type { StripeStore } from './state.ts';
import { renderSubscription } from './subscriptions.ts';

/** Any stored object by id, for `expand[]`. */
export function renderById(store: StripeStore, id: string): Json | undefined {
  const s = store.sessions.get(id);
  if (s) return renderSession(s, store.url);
  const c = store.customers.get(id);
  if (c) return renderCustomer(c);
  const sub = store.subscriptions.get(id);
  if (sub) return renderSubscription(sub);
  const inv = store.invoices.get(id);
  if (inv) return renderInvoice(inv, store.url);
  const pi = store.paymentIntents.get(id);
  if (pi) return renderPaymentIntent(pi);
  const ch = store.charges.get(id);
  if (ch) return renderCharge(ch, store.url);
  return undefined;
}

/** `expand[]=subscription`, `expand[]=subscription.latest_invoice`, `expand[]=line_items`. */
export function applyExpand(store: StripeStore, obj: Json, params: FormObject): Json {
  const expand = readArray(params, 'expand', '') ?? [];
  for (const entry of expand) {
    if (typeof entry !== 'string') throw invalid('Invalid array', 'expand');
    let target: Json = obj;
    const parts = entry.split('.');
    for (const [i, field] of parts.entries()) {
      const value = target[field];
      if (obj.object === 'checkout.session' && i === 0 && field === 'line_items') {
        const session = store.sessions.get(String(obj.id));
        if (session) target[field] = renderSessionLineItems(session);
        break;
      }
      if (value === null && i === parts.length - 1) break;
      let expanded: Json | undefined;
      if (typeof value === 'string' && field !== 'id') expanded = renderById(store, value);
      else if (typeof value === 'object' && value !== null && 'object' in value) {
        expanded = value as Json;
      }
      if (!expanded) {
        throw invalid(
          `This property cannot be expanded (${parts.slice(0, i + 1).join('.')}).`,
          'expand',
        );
      }
      target[field] = expanded;
      target = expanded;
    }
  }
  return obj;
}
