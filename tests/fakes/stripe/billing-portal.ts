/**
 * The customer portal for the Stripe fake (issue 37, item 2): `POST /v1/billing_portal/sessions`
 * in the wire format of the pinned API version (BillingPortal.Session), and what the customer does
 * once in the portal, each returning the webhook deliveries Stripe sends for it: switching plan
 * (to a catalogue price the account's portal configuration offers; a new interval restarts the
 * billing cycle and is invoiced at once), cancelling at the end of the period, and changing the
 * card. The portal applies changes without proration, as the README tells the operator to set it.
 */
import type { ServerResponse } from 'node:http';
import { periodOf } from './calendar.ts';
import { renderCustomer } from './customers.ts';
import { invalid, missingParam, noSuch } from './errors.ts';
import { diffTopLevel, event, sign } from './events.ts';
import { checkKeys, readEnum, readString, readUrl, type FormObject, type Json } from './form.ts';
import { newId, nowSeconds, randomToken } from './ids.ts';
import { attemptInvoicePayment } from './invoice-payments.ts';
import { issueInvoice, renderInvoice } from './invoices.ts';
import type { PriceState, StripeStore, SubscriptionState } from './state.ts';
import { renderSubscription } from './subscriptions.ts';
import type { PortalPrice, SignedEvent } from './types.ts';

// Parameter names from the SDK's BillingPortal.SessionCreateParams.
// prettier-ignore
const SESSION_CREATE_PARAMS = [
  'after_expiration', 'configuration', 'customer', 'customer_account', 'expand', 'flow_data',
  'locale', 'on_behalf_of', 'return_url',
];
const SESSION_CREATE_IMPLEMENTED = ['customer', 'expand', 'locale', 'return_url'];
// prettier-ignore
const PORTAL_LOCALES = [
  'auto', 'bg', 'cs', 'da', 'de', 'el', 'en', 'en-AU', 'en-CA', 'en-GB', 'en-IE', 'en-IN', 'en-NZ',
  'en-SG', 'es', 'es-419', 'et', 'fi', 'fil', 'fr', 'fr-CA', 'hr', 'hu', 'id', 'it', 'ja', 'ko',
  'lt', 'lv', 'ms', 'mt', 'nb', 'nl', 'pl', 'pt', 'pt-BR', 'ro', 'ru', 'sk', 'sl', 'sv', 'th', 'tr',
  'vi', 'zh', 'zh-HK', 'zh-TW',
] as const;

/** The sessions each store made, by id (kept beside the store, which predates the portal). */
const portalSessions = new WeakMap<StripeStore, Map<string, Json>>();

/** The portal sessions a fake made, oldest first (for tests). */
export function portalSessionsOf(store: StripeStore): Json[] {
  return [...(portalSessions.get(store)?.values() ?? [])];
}

/** `POST /v1/billing_portal/sessions`; null for other paths. */
export function routeBillingPortal(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
): Json | null {
  if (path !== '/v1/billing_portal/sessions' || method !== 'POST') return null;
  checkKeys(params, '', SESSION_CREATE_PARAMS, SESSION_CREATE_IMPLEMENTED);
  const customer = readString(params, 'customer', '');
  if (customer === undefined) throw missingParam('customer');
  if (!store.customers.has(customer)) throw noSuch('customer', customer, 'customer');
  const returnUrl = readUrl(params, 'return_url', '') ?? null;
  const locale = readEnum(params, 'locale', '', PORTAL_LOCALES) ?? null;
  const id = newId('bps');
  const session: Json = {
    id,
    object: 'billing_portal.session',
    configuration: `bpc_${randomToken(24)}`,
    created: nowSeconds(),
    customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale,
    on_behalf_of: null,
    return_url: returnUrl,
    url: `${store.url}/p/session/test_${randomToken(40)}`,
  };
  const sessions = portalSessions.get(store) ?? new Map<string, Json>();
  sessions.set(id, session);
  portalSessions.set(store, sessions);
  return session;
}

function activeSubscription(store: StripeStore, id: string): SubscriptionState {
  const sub = store.subscriptions.get(id);
  if (!sub) throw new Error(`stripe fake: unknown subscription ${id}`);
  if (sub.status === 'canceled') throw invalid(`The subscription ${id} is canceled.`);
  return sub;
}

const signed = (
  store: StripeStore,
  type: string,
  object: object,
  previousAttributes?: Record<string, unknown>,
): SignedEvent => sign(store, event(store, type, object, previousAttributes));

/**
 * The customer switches plan in the portal. The same interval: the item's price changes now and
 * the next renewal charges it ([customer.subscription.updated]). Another interval: Stripe restarts
 * the billing cycle now and charges the new price at once ([customer.subscription.updated,
 * invoice.paid] with billing_reason 'subscription_update').
 */
export function portalSwitchPlan(
  store: StripeStore,
  subscriptionId: string,
  price: PortalPrice,
): SignedEvent[] {
  const sub = activeSubscription(store, subscriptionId);
  const item = sub.items[0];
  if (!item) throw new Error(`stripe fake: subscription ${subscriptionId} has no item`);
  const before = renderSubscription(sub);
  const now = nowSeconds();
  const next: PriceState = {
    id: newId('price'),
    productId: newId('prod', 14),
    productName: price.productName,
    currency: sub.currency,
    unitAmount: price.unitAmount,
    recurring: { interval: price.interval, intervalCount: 1 },
    taxBehavior: 'unspecified',
    created: now,
    active: true,
    lookupKey: price.lookupKey ?? null,
    metadata: { ...price.metadata },
  };
  item.price = next;
  const newInterval = price.interval !== sub.interval;
  if (newInterval) {
    sub.interval = price.interval;
    sub.intervalCount = 1;
    sub.anchor = now;
    sub.periodIndex = 0;
  }
  const after = renderSubscription(sub);
  const updated = signed(
    store,
    'customer.subscription.updated',
    after,
    diffTopLevel(before, after),
  );
  if (!newInterval) return [updated];
  const period = periodOf(sub);
  const inv = issueInvoice(
    store,
    sub,
    'subscription_update',
    { start: now, end: now },
    period,
    now,
  );
  attemptInvoicePayment(store, inv, 'succeeded');
  return [updated, signed(store, 'invoice.paid', renderInvoice(inv, store.url))];
}

/** The customer cancels in the portal (at the end of the period): [customer.subscription.updated]. */
export function portalCancel(store: StripeStore, subscriptionId: string): SignedEvent[] {
  const sub = activeSubscription(store, subscriptionId);
  const before = renderSubscription(sub);
  sub.cancelAtPeriodEnd = true;
  sub.cancelAt = periodOf(sub).end;
  sub.canceledAt = nowSeconds();
  sub.cancellation = { ...sub.cancellation, reason: 'cancellation_requested' };
  const after = renderSubscription(sub);
  return [signed(store, 'customer.subscription.updated', after, diffTopLevel(before, after))];
}

/**
 * The customer adds a card in the portal and makes it the default: [payment_method.attached,
 * customer.updated]. Nothing is charged.
 */
export function portalUpdatePaymentMethod(store: StripeStore, customerId: string): SignedEvent[] {
  const customer = store.customers.get(customerId);
  if (!customer) throw new Error(`stripe fake: unknown customer ${customerId}`);
  const paymentMethod = newId('pm');
  const before = renderCustomer(customer);
  const after = {
    ...before,
    invoice_settings: {
      ...(before.invoice_settings as Json),
      default_payment_method: paymentMethod,
    },
  };
  for (const sub of store.subscriptions.values()) {
    if (sub.customer === customerId) sub.defaultPaymentMethod = paymentMethod;
  }
  const card = {
    id: paymentMethod,
    object: 'payment_method',
    allow_redisplay: 'always',
    billing_details: {
      address: null,
      email: customer.email,
      name: customer.name,
      phone: null,
      tax_id: null,
    },
    card: {
      brand: 'visa',
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: 'visa',
      exp_month: 12,
      exp_year: new Date().getUTCFullYear() + 3,
      fingerprint: randomToken(16),
      funding: 'credit',
      generated_from: null,
      last4: '4242',
      networks: { available: ['visa'], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    created: nowSeconds(),
    customer: customerId,
    customer_account: null,
    livemode: false,
    metadata: {},
    type: 'card',
  };
  return [
    signed(store, 'payment_method.attached', card),
    signed(store, 'customer.updated', after, {
      invoice_settings: before.invoice_settings as Json,
    }),
  ];
}

/** The hosted portal page a session's url opens: the customer and the way back (return_url). */
export function renderPortalPage(store: StripeStore, path: string, res: ServerResponse): void {
  const session = portalSessionsOf(store).find((s) => new URL(String(s.url)).pathname === path);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  if (!session) {
    res.statusCode = 404;
    res.end('<!doctype html><title>Not found</title><h1>This link has expired</h1>');
    return;
  }
  const escape = (v: string): string => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const back = session.return_url ? String(session.return_url) : null;
  res.statusCode = 200;
  res.end(
    `<!doctype html><title>Fake Stripe customer portal</title><h1>Fake Stripe customer portal</h1>` +
      `<p data-customer="${escape(String(session.customer))}">Invoices, payment methods and the subscription of ${escape(String(session.customer))}.</p>` +
      (back ? `<a href="${escape(back)}">Return</a>` : ''),
  );
}
