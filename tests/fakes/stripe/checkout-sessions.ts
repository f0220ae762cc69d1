/**
 * Checkout Sessions for the Stripe fake: create (with Stripe's parameter checks), retrieve, list
 * line items, expire, and the hosted payment page a session's `url` points at.
 */
import type { ServerResponse } from 'node:http';
import { invalid, missingParam, noSuch, notImplemented } from './errors.ts';
import { queueEvent } from './events.ts';
import {
  checkKeys,
  createMetadata,
  readArray,
  readBool,
  readEnum,
  readHash,
  readInt,
  readMetadata,
  readString,
  readUrl,
  type FormObject,
  type Json,
} from './form.ts';
import { randomToken, nowSeconds } from './ids.ts';
import { formatMoney } from './invoices.ts';
import { parseLineItems, renderPrice } from './prices.ts';
import { renderDiscounts, sessionDiscount } from './promotions.ts';
import type { RequestContext, SessionState, StripeStore } from './state.ts';

// Parameter names straight from the SDK's SessionCreateParams / SubscriptionUpdateParams types.
// prettier-ignore
const SESSION_CREATE_PARAMS = [
  'adaptive_pricing', 'after_expiration', 'allow_promotion_codes', 'allowed_payment_method_types',
  'automatic_tax', 'billing_address_collection', 'branding_settings', 'cancel_url',
  'client_reference_id', 'consent_collection', 'currency', 'custom_fields', 'custom_text',
  'customer', 'customer_account', 'customer_creation', 'customer_email', 'customer_update',
  'discounts', 'excluded_payment_method_types', 'expand', 'expires_at', 'integration_identifier',
  'invoice_creation', 'line_items', 'locale', 'managed_payments', 'metadata', 'mode',
  'name_collection', 'optional_items', 'origin_context', 'payment_intent_data',
  'payment_method_collection', 'payment_method_configuration', 'payment_method_data',
  'payment_method_options', 'permissions', 'phone_number_collection', 'redirect_on_completion',
  'return_url', 'saved_payment_method_options', 'setup_intent_data',
  'shipping_address_collection', 'shipping_options', 'submit_type', 'subscription_data',
  'success_url', 'tax_id_collection', 'ui_mode', 'wallet_options',
] as const;
// prettier-ignore
const SESSION_CREATE_IMPLEMENTED = [
  'allow_promotion_codes', 'billing_address_collection', 'cancel_url', 'client_reference_id',
  'customer', 'customer_creation', 'customer_email', 'discounts', 'expand', 'expires_at', 'line_items',
  'locale', 'metadata', 'mode', 'payment_intent_data', 'subscription_data', 'success_url',
  'ui_mode',
] as const;
// prettier-ignore
const SUBSCRIPTION_DATA_PARAMS = [
  'application_fee_percent', 'billing_cycle_anchor', 'billing_cycle_anchor_config', 'billing_mode',
  'default_tax_rates', 'description', 'invoice_settings', 'metadata', 'on_behalf_of',
  'pending_invoice_item_interval', 'proration_behavior', 'transfer_data', 'trial_end',
  'trial_period_days', 'trial_settings',
];
const SUBSCRIPTION_DATA_IMPLEMENTED = ['description', 'metadata'];
// prettier-ignore
const PAYMENT_INTENT_DATA_PARAMS = [
  'application_fee_amount', 'capture_method', 'description', 'metadata', 'on_behalf_of',
  'receipt_email', 'setup_future_usage', 'shipping', 'statement_descriptor',
  'statement_descriptor_suffix', 'transfer_data', 'transfer_group',
];
const PAYMENT_INTENT_DATA_IMPLEMENTED = ['description', 'metadata', 'receipt_email'];

export function renderSessionLineItems(s: SessionState): Json {
  return {
    object: 'list',
    data: s.lineItems.map((li) => ({
      id: li.id,
      object: 'item',
      adjustable_quantity: null,
      amount_discount: 0,
      amount_subtotal: li.price.unitAmount * li.quantity,
      amount_tax: 0,
      amount_total: li.price.unitAmount * li.quantity,
      currency: li.price.currency,
      description: li.description,
      metadata: {},
      price: renderPrice(li.price),
      quantity: li.quantity,
    })),
    has_more: false,
    url: `/v1/checkout/sessions/${s.id}/line_items`,
  };
}

/** The session as Stripe sends it; `url` is the fake's base URL (the hosted page's origin). */
export function renderSession(s: SessionState, url: string): Json {
  return {
    id: s.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: s.allowPromotionCodes,
    amount_subtotal: s.amountTotal + (s.discount?.amount ?? 0),
    amount_total: s.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: s.billingAddressCollection,
    cancel_url: s.cancelUrl,
    client_reference_id: s.clientReferenceId,
    client_secret: null,
    collected_information:
      s.status === 'complete'
        ? { business_name: null, individual_name: null, shipping_details: null }
        : null,
    consent: null,
    consent_collection: null,
    created: s.created,
    currency: s.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: s.customer,
    customer_account: null,
    customer_creation: s.customerCreation,
    customer_details: s.customerDetails
      ? {
          address: null,
          business_name: null,
          email: s.customerDetails.email,
          individual_name: null,
          name: s.customerDetails.name,
          phone: null,
          tax_exempt: 'none',
          tax_ids: [],
        }
      : null,
    customer_email: s.customerEmail,
    discounts: renderDiscounts(s.discount ?? null),
    expires_at: s.expiresAt,
    integration_identifier: null,
    invoice: s.invoice,
    invoice_creation:
      s.mode === 'payment' ? { enabled: false, invoice_data: { metadata: {} } } : null,
    livemode: false,
    locale: s.locale,
    managed_payments: null,
    metadata: s.metadata,
    mode: s.mode,
    origin_context: null,
    payment_intent: s.paymentIntent,
    payment_link: null,
    payment_method_collection: s.mode === 'subscription' ? 'always' : 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: s.paymentStatus,
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: s.status,
    submit_type: null,
    subscription: s.subscription,
    success_url: s.successUrl,
    total_details: { amount_discount: s.discount?.amount ?? 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    // The hosted page link is only usable while the session is open.
    url: s.status === 'open' ? `${url}/c/pay/${s.id}` : null,
    wallet_options: null,
  };
}

export function createSession(store: StripeStore, params: FormObject): Json {
  checkKeys(params, '', SESSION_CREATE_PARAMS, SESSION_CREATE_IMPLEMENTED);
  const modeParam = readEnum(params, 'mode', '', ['payment', 'setup', 'subscription']);
  if (modeParam === undefined) throw missingParam('mode');
  if (modeParam === 'setup') throw notImplemented('mode');
  const mode = modeParam;
  const uiMode = readEnum(params, 'ui_mode', '', [
    'elements',
    'embedded_page',
    'form',
    'hosted_page',
  ]);
  if (uiMode !== undefined && uiMode !== 'hosted_page') throw notImplemented('ui_mode');
  const successUrl = readUrl(params, 'success_url', '');
  if (successUrl === undefined) throw missingParam('success_url');
  const cancelUrl = readUrl(params, 'cancel_url', '') ?? null;

  const customerEmail = readString(params, 'customer_email', '') ?? null;
  const customerParam = readString(params, 'customer', '') ?? null;
  if (customerEmail !== null && customerParam !== null) {
    throw invalid('You may only specify one of these parameters: customer, customer_email.');
  }
  if (customerParam !== null && !store.customers.has(customerParam)) {
    throw noSuch('customer', customerParam, 'customer');
  }
  const clientReferenceId = readString(params, 'client_reference_id', '') ?? null;
  if (clientReferenceId !== null && clientReferenceId.length > 200) {
    throw invalid(
      `Invalid string: ${clientReferenceId.slice(0, 20)}...; must be at most 200 characters`,
      'client_reference_id',
    );
  }
  const metadata = createMetadata(readMetadata(params, 'metadata', ''));
  const customerCreation = readEnum(params, 'customer_creation', '', ['always', 'if_required']);
  if (customerCreation !== undefined && mode !== 'payment') {
    throw invalid('`customer_creation` can only be used in `payment` mode.', 'customer_creation');
  }

  const subscriptionDataRaw = readHash(params, 'subscription_data', '');
  if (subscriptionDataRaw !== undefined && mode !== 'subscription') {
    throw invalid(
      `You can not pass \`subscription_data\` in \`${mode}\` mode.`,
      'subscription_data',
    );
  }
  const sd = subscriptionDataRaw ?? {};
  checkKeys(sd, 'subscription_data', SUBSCRIPTION_DATA_PARAMS, SUBSCRIPTION_DATA_IMPLEMENTED);
  const subscriptionData = {
    metadata: createMetadata(readMetadata(sd, 'metadata', 'subscription_data')),
    description: readString(sd, 'description', 'subscription_data') ?? null,
  };

  const paymentIntentDataRaw = readHash(params, 'payment_intent_data', '');
  if (paymentIntentDataRaw !== undefined && mode !== 'payment') {
    throw invalid(
      `You can not pass \`payment_intent_data\` in \`${mode}\` mode.`,
      'payment_intent_data',
    );
  }
  const pid = paymentIntentDataRaw ?? {};
  checkKeys(
    pid,
    'payment_intent_data',
    PAYMENT_INTENT_DATA_PARAMS,
    PAYMENT_INTENT_DATA_IMPLEMENTED,
  );
  const paymentIntentData = {
    metadata: createMetadata(readMetadata(pid, 'metadata', 'payment_intent_data')),
    description: readString(pid, 'description', 'payment_intent_data') ?? null,
    receiptEmail: readString(pid, 'receipt_email', 'payment_intent_data') ?? null,
  };

  const created = nowSeconds();
  const expiresAt = readInt(params, 'expires_at', '') ?? created + 24 * 3600;
  if (expiresAt < created + 30 * 60 || expiresAt > created + 24 * 3600) {
    throw invalid(
      'The `expires_at` timestamp must be between 30 minutes and 24 hours after Checkout Session creation.',
      'expires_at',
    );
  }

  const lineItemsRaw = readArray(params, 'line_items', '');
  if (lineItemsRaw === undefined || lineItemsRaw.length === 0) throw missingParam('line_items');
  const lineItems = parseLineItems(lineItemsRaw, mode);
  const first = lineItems[0];
  if (!first) throw missingParam('line_items');
  const currency = first.price.currency;
  if (lineItems.some((li) => li.price.currency !== currency)) {
    throw invalid('All line items must have the same currency.', 'line_items');
  }
  if (mode === 'subscription') {
    const recurring = lineItems.filter((li) => li.price.recurring);
    if (recurring.length === 0) {
      throw invalid(
        'You must provide at least one recurring price in `subscription` mode when using prices.',
        'line_items',
      );
    }
    const [a] = recurring;
    if (
      a &&
      recurring.some(
        (li) =>
          li.price.recurring?.interval !== a.price.recurring?.interval ||
          li.price.recurring?.intervalCount !== a.price.recurring?.intervalCount,
      )
    ) {
      throw invalid(
        'Checkout does not support multiple prices with different billing intervals.',
        'line_items',
      );
    }
  }
  const subtotal = lineItems.reduce((sum, li) => sum + li.price.unitAmount * li.quantity, 0);
  const allowPromotionCodes = readBool(params, 'allow_promotion_codes', '');
  const discount = sessionDiscount(
    store,
    readArray(params, 'discounts', ''),
    allowPromotionCodes,
    subtotal,
  );
  const amountTotal = subtotal - (discount?.amount ?? 0);
  // A discount may make the order free; a charge below Stripe's minimum is refused.
  if (
    mode === 'payment' &&
    currency === 'usd' &&
    amountTotal < 50 &&
    !(discount && amountTotal === 0)
  ) {
    throw invalid("The Checkout Session's total amount due must add up to at least $0.50 usd");
  }

  const session: SessionState = {
    id: `cs_test_${randomToken(58)}`,
    created,
    expiresAt,
    mode,
    status: 'open',
    paymentStatus: 'unpaid',
    lineItems,
    currency,
    amountTotal,
    customerParam,
    customerCreation: mode === 'payment' ? (customerCreation ?? 'if_required') : null,
    customerEmail,
    clientReferenceId,
    metadata,
    successUrl,
    cancelUrl,
    locale: readString(params, 'locale', '') ?? null,
    allowPromotionCodes: allowPromotionCodes ?? null,
    discount,
    billingAddressCollection:
      readEnum(params, 'billing_address_collection', '', ['auto', 'required']) ?? null,
    subscriptionData,
    paymentIntentData,
    customer: customerParam,
    customerDetails: null,
    subscription: null,
    invoice: null,
    paymentIntent: null,
  };
  store.sessions.set(session.id, session);
  return renderSession(session, store.url);
}

export function getSession(store: StripeStore, id: string): SessionState {
  const s = store.sessions.get(id);
  if (!s) throw noSuch('checkout.session', id, 'session');
  return s;
}

export function expireSession(
  store: StripeStore,
  id: string,
  params: FormObject,
  ctx: RequestContext,
): Json {
  checkKeys(params, '', ['expand'], ['expand']);
  const s = getSession(store, id);
  if (s.status !== 'open') {
    throw invalid(
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
    );
  }
  s.status = 'expired';
  queueEvent(store, 'checkout.session.expired', renderSession(s, store.url), undefined, ctx);
  return renderSession(s, store.url);
}

/** The hosted page (`GET /c/pay/{id}`): enough HTML for a test to see the session and its items. */
export function renderHostedPage(store: StripeStore, id: string, res: ServerResponse): void {
  const s = store.sessions.get(id);
  res.setHeader('content-type', 'text/html; charset=utf-8');
  if (!s) {
    res.statusCode = 404;
    res.end('<!doctype html><title>Not found</title><h1>Something went wrong</h1>');
    return;
  }
  const escape = (v: string): string => v.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const items = s.lineItems
    .map(
      (li) =>
        `<li>${escape(li.description)} × ${li.quantity}: ${formatMoney(li.price.unitAmount * li.quantity, s.currency)}</li>`,
    )
    .join('');
  res.statusCode = 200;
  res.end(
    `<!doctype html><title>Fake Stripe Checkout</title><h1>Fake Stripe Checkout</h1>` +
      `<p data-session="${escape(s.id)}" data-status="${s.status}">${s.mode} · ${formatMoney(s.amountTotal, s.currency)}</p><ul>${items}</ul>`,
  );
}
