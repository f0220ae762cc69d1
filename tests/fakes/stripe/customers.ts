/** Customers for the Stripe fake: the wire JSON, and the customer a completed checkout makes. */
import type { Json } from './form.ts';
import { newId, nowSeconds, randomToken } from './ids.ts';
import type { CustomerState, SessionState, StripeStore } from './state.ts';

export function renderCustomer(c: CustomerState): Json {
  return {
    id: c.id,
    object: 'customer',
    address: null,
    balance: 0,
    business_name: null,
    created: c.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: c.email,
    individual_name: null,
    invoice_prefix: c.invoicePrefix,
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    livemode: false,
    metadata: c.metadata,
    name: c.name,
    next_invoice_sequence: c.invoiceCount + 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

/** The session's own customer, or a new one for the buyer (as Stripe makes at checkout). */
export function ensureCustomer(
  store: StripeStore,
  s: SessionState,
  buyer: { email: string; name: string },
): CustomerState {
  const existing = s.customerParam ? store.customers.get(s.customerParam) : undefined;
  if (existing) return existing;
  const c: CustomerState = {
    id: newId('cus', 14),
    created: nowSeconds(),
    email: buyer.email,
    name: buyer.name,
    metadata: {},
    invoicePrefix: randomToken(8).toUpperCase(),
    invoiceCount: 0,
  };
  store.customers.set(c.id, c);
  return c;
}
