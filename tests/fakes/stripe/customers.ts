/**
 * Customers for the Stripe fake: the wire JSON, `POST /v1/customers` (as a server makes one
 * customer per buyer and names it in every checkout), and the customer a completed checkout makes.
 */
import {
  checkKeys,
  createMetadata,
  readMetadata,
  readString,
  type FormObject,
  type Json,
} from './form.ts';
import { newId, nowSeconds, randomToken } from './ids.ts';
import type { CustomerState, SessionState, StripeStore } from './state.ts';

// Parameter names from the SDK's CustomerCreateParams.
// prettier-ignore
const CUSTOMER_CREATE_PARAMS = [
  'address', 'balance', 'business_name', 'cash_balance', 'description', 'email', 'expand',
  'individual_name', 'invoice_prefix', 'invoice_settings', 'metadata', 'name',
  'next_invoice_sequence', 'payment_method', 'phone', 'preferred_locales', 'shipping', 'source',
  'tax', 'tax_exempt', 'tax_id_data', 'test_clock', 'validate',
];
const CUSTOMER_CREATE_IMPLEMENTED = ['email', 'expand', 'metadata', 'name'];

/** `POST /v1/customers`; null for other paths (retrieval is the router's generic GET). */
export function routeCustomers(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
): Json | null {
  if (path !== '/v1/customers' || method !== 'POST') return null;
  checkKeys(params, '', CUSTOMER_CREATE_PARAMS, CUSTOMER_CREATE_IMPLEMENTED);
  const c: CustomerState = {
    id: newId('cus', 14),
    created: nowSeconds(),
    email: readString(params, 'email', '') ?? null,
    name: readString(params, 'name', '') ?? null,
    metadata: createMetadata(readMetadata(params, 'metadata', '')),
    invoicePrefix: randomToken(8).toUpperCase(),
    invoiceCount: 0,
  };
  store.customers.set(c.id, c);
  return renderCustomer(c);
}

export function renderCustomer(c: CustomerState): Json {
  return {
    id: c.id,
    object: 'customer',
    address: null,
    balance: 0,
    created: c.created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: c.email,
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
