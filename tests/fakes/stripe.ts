/**
 * A local Stripe that speaks the real v1 wire format over real HTTP: form-encoded requests with
 * bracket notation, pretty-printed JSON answers, Stripe's error envelope, idempotency keys and
 * request ids. Our production adapter talks to it through the real `stripe` SDK
 * (`new Stripe(fake.secretKey, { host: '127.0.0.1', port: fake.port, protocol: 'http' })`), so
 * tests exercise the same encoding, error classes and webhook verification as production.
 *
 * It also plays the part of Stripe after the buyer leaves our site: `completeCheckout`,
 * `renewSubscription` and `refundCheckout` mutate the stored objects the way Stripe does and return
 * the webhook deliveries Stripe would send, signed with the endpoint secret.
 *
 * Objects follow API version 2026-10-28.endive (the SDK's pinned version): subscription periods
 * live on the items, invoices point at their subscription through `parent.subscription_details`.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A v1 "snapshot" event exactly as Stripe serialises it into a webhook body. */
export interface StripeEventJson {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** One webhook delivery: the event, the exact body bytes Stripe posts, and its Stripe-Signature. */
export interface SignedEvent {
  event: StripeEventJson;
  /** Raw request body; verify signatures against this string, never a re-serialisation. */
  payload: string;
  /** Value of the `Stripe-Signature` header. */
  header: string;
}

/** One API call the fake received (rejected ones included), oldest first. */
export interface StripeFakeRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/checkout/sessions`. */
  path: string;
  /** Parsed (nested) params: the form body for POST, the query string for GET and DELETE. */
  body: Record<string, unknown>;
  idempotencyKey: string | null;
  stripeVersion: string | null;
}

export interface StripeFake {
  url: string;
  port: number;
  secretKey: string;
  webhookSecret: string;
  requests: StripeFakeRequest[];
  close(): Promise<void>;
  /**
   * The buyer pays the hosted page. Payment mode → payment_intent + charge, returns
   * [checkout.session.completed]; subscription mode → customer, subscription, first invoice,
   * returns [customer.subscription.created, invoice.paid, checkout.session.completed].
   */
  completeCheckout(sessionId: string, buyer?: { email?: string; name?: string }): SignedEvent[];
  /**
   * The next billing period starts: returns [invoice.paid] (billing_reason 'subscription_cycle').
   * A subscription set to cancel at period end is ended instead: [customer.subscription.deleted].
   */
  renewSubscription(subscriptionId: string): SignedEvent[];
  /** Refunds (fully by default) the charge behind a paid payment-mode session: [charge.refunded]. */
  refundCheckout(sessionId: string, amountCents?: number): SignedEvent[];
  /** Returns and clears the events produced by API calls (cancel, update, expire). */
  takeEvents(): SignedEvent[];
  /** Signs any event; override the timestamp or secret to forge stale or foreign deliveries. */
  sign(event: object, opts?: { timestamp?: number; secret?: string }): SignedEvent;
  /** Wraps an object in an event envelope as Stripe does. */
  event(
    type: string,
    object: object,
    previousAttributes?: Record<string, unknown>,
  ): StripeEventJson;
  /** POSTs a signed event to a webhook endpoint with the headers Stripe sends. */
  deliver(endpointUrl: string, signed: SignedEvent): Promise<Response>;
}

// ---------------------------------------------------------------------------------------------
// Wire helpers

type Json = Record<string, unknown>;
type FormValue = string | FormValue[] | FormObject;
interface FormObject {
  [key: string]: FormValue;
}

interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

/** Thrown by handlers; becomes Stripe's `{ error: {...} }` answer. */
class ApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

const invalid = (message: string, param?: string): ApiError =>
  new ApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(param === undefined ? {} : { param }),
  });

const missingParam = (param: string): ApiError =>
  new ApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
    message: `Missing required param: ${param}.`,
    param,
  });

const noSuch = (kind: string, id: string, param: string): ApiError =>
  new ApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

// Valid Stripe parameters the fake does not model: failing loudly beats silently ignoring them.
const notImplemented = (param: string): ApiError =>
  invalid(`The Stripe fake does not implement \`${param}\`; extend tests/fakes/stripe.ts.`, param);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
function randomToken(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += BASE62[b % 62];
  return out;
}
const newId = (prefix: string, length = 24): string => `${prefix}_${randomToken(length)}`;
const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Joins a bracket path the way Stripe names params in errors: `line_items[0][quantity]`. */
const paramPath = (prefix: string, key: string | number): string =>
  prefix === '' ? String(key) : `${prefix}[${key}]`;

/**
 * Decodes Stripe's form encoding (`a[b][0][c]=v`, `a[]=v`) into nested objects; objects whose keys
 * are all indices become arrays, except metadata, where "0" is an ordinary key.
 */
function parseForm(raw: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!match?.[1]) throw invalid(`Invalid parameter name: ${key}`, key);
    const segments = [
      match[1],
      ...[...(match[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? ''),
    ];
    let node: FormObject = root;
    for (let i = 0; i < segments.length; i++) {
      let segment = segments[i] ?? '';
      // `a[]=x` appends, as Rack-style parsers do.
      if (segment === '') segment = String(Object.keys(node).length);
      if (i === segments.length - 1) {
        node[segment] = value;
        break;
      }
      const next = node[segment];
      if (next === undefined) {
        const created: FormObject = {};
        node[segment] = created;
        node = created;
      } else if (typeof next === 'object' && !Array.isArray(next)) {
        node = next;
      } else {
        throw invalid(`Invalid hash`, segments.slice(0, i + 1).join('['));
      }
    }
  }
  return arrayify(root, '') as FormObject;
}

function arrayify(value: FormValue, key: string): FormValue {
  if (typeof value === 'string' || Array.isArray(value)) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, arrayify(v, k)] as const);
  const isList =
    key !== 'metadata' && entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k));
  if (isList) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
  }
  return Object.fromEntries(entries);
}

const isFormObject = (v: FormValue | undefined): v is FormObject =>
  typeof v === 'object' && !Array.isArray(v);

/** Stripe's own words for a wrong type, e.g. `Invalid integer: abc`. */
function showValue(v: FormValue): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

// Typed readers: absent or empty string → undefined (Stripe treats `x=` as "unset").
function readString(obj: FormObject, key: string, prefix: string): string | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string')
    throw invalid(`Invalid string: ${showValue(v)}`, paramPath(prefix, key));
  return v;
}

function readInt(obj: FormObject, key: string, prefix: string, min?: number): number | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  const param = paramPath(prefix, key);
  if (typeof v !== 'string' || !/^-?\d+$/.test(v))
    throw invalid(`Invalid integer: ${showValue(v)}`, param);
  const n = Number(v);
  if (min !== undefined && n < min) {
    throw invalid(`This value must be greater than or equal to ${min}.`, param);
  }
  return n;
}

function readBool(obj: FormObject, key: string, prefix: string): boolean | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid(`Invalid boolean: ${showValue(v)}`, paramPath(prefix, key));
}

function readEnum<T extends string>(
  obj: FormObject,
  key: string,
  prefix: string,
  allowed: readonly T[],
): T | undefined {
  const v = readString(obj, key, prefix);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v)) {
    const list =
      allowed.length > 1
        ? `${allowed.slice(0, -1).join(', ')}, or ${allowed[allowed.length - 1]}`
        : allowed.join('');
    throw invalid(`Invalid ${key}: must be one of ${list}`, paramPath(prefix, key));
  }
  return v as T;
}

function readHash(obj: FormObject, key: string, prefix: string): FormObject | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (!isFormObject(v)) throw invalid('Invalid object', paramPath(prefix, key));
  return v;
}

function readArray(obj: FormObject, key: string, prefix: string): FormValue[] | undefined {
  const v = obj[key];
  if (v === undefined || v === '') return undefined;
  if (!Array.isArray(v)) throw invalid('Invalid array', paramPath(prefix, key));
  return v;
}

/** Unknown keys are Stripe's "Received unknown parameter"; known but unmodelled ones fail loudly. */
function checkKeys(
  obj: FormObject,
  prefix: string,
  known: readonly string[],
  implemented: readonly string[],
): void {
  for (const key of Object.keys(obj)) {
    const param = paramPath(prefix, key);
    if (!known.includes(key)) throw invalid(`Received unknown parameter: ${param}`, param);
    if (!implemented.includes(key)) throw notImplemented(param);
  }
}

/** Metadata limits as Stripe enforces them; an empty value means "no key" (delete on update). */
function readMetadata(
  obj: FormObject,
  key: string,
  prefix: string,
): Record<string, string | null> | undefined {
  const raw = obj[key];
  if (raw === undefined) return undefined;
  const param = paramPath(prefix, key);
  // `metadata=` clears all keys on update.
  if (raw === '') return {};
  if (!isFormObject(raw)) throw invalid('Invalid object', param);
  const entries = Object.entries(raw);
  if (entries.length > 50) throw invalid('Metadata can have up to 50 keys.', param);
  const out: Record<string, string | null> = {};
  for (const [k, v] of entries) {
    if (typeof v !== 'string')
      throw invalid(`Invalid string: ${showValue(v)}`, paramPath(param, k));
    if (k.length > 40) {
      throw invalid(
        `Metadata keys can have up to 40 characters, but you passed in a key that is ${k.length} characters. Invalid key: '${k}'`,
        paramPath(param, k),
      );
    }
    if (v.length > 500) {
      throw invalid(
        `Metadata values can have up to 500 characters, but you passed in a value that is ${v.length} characters. Invalid value: '${v}'`,
        paramPath(param, k),
      );
    }
    out[k] = v === '' ? null : v;
  }
  return out;
}

/** Metadata for a new object: unset keys simply do not exist. */
function createMetadata(meta: Record<string, string | null> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(meta ?? {})) if (v !== null) out[k] = v;
  return out;
}

function readUrl(obj: FormObject, key: string, prefix: string): string | undefined {
  const v = readString(obj, key, prefix);
  if (v === undefined) return undefined;
  // Stripe accepts the literal {CHECKOUT_SESSION_ID} template inside the URL.
  if (!URL.canParse(v) || !/^https?:/.test(v))
    throw invalid('Not a valid URL', paramPath(prefix, key));
  return v;
}

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
  'customer', 'customer_creation', 'customer_email', 'expand', 'expires_at', 'line_items',
  'locale', 'metadata', 'mode', 'payment_intent_data', 'subscription_data', 'success_url',
  'ui_mode',
] as const;
const LINE_ITEM_PARAMS = [
  'adjustable_quantity',
  'metadata',
  'price',
  'price_data',
  'quantity',
  'tax_rates',
];
const LINE_ITEM_IMPLEMENTED = ['metadata', 'price', 'price_data', 'quantity'];
// prettier-ignore
const PRICE_DATA_PARAMS = [
  'currency', 'product', 'product_data', 'recurring', 'tax_behavior', 'unit_amount',
  'unit_amount_decimal',
];
const PRICE_DATA_IMPLEMENTED = [
  'currency',
  'product',
  'product_data',
  'recurring',
  'tax_behavior',
  'unit_amount',
];
const PRODUCT_DATA_PARAMS = [
  'description',
  'images',
  'metadata',
  'name',
  'tax_code',
  'tax_details',
  'unit_label',
];
const PRODUCT_DATA_IMPLEMENTED = ['description', 'images', 'metadata', 'name'];
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
// prettier-ignore
const SUBSCRIPTION_UPDATE_PARAMS = [
  'add_invoice_items', 'application_fee_percent', 'automatic_tax', 'billing_cycle_anchor',
  'billing_schedules', 'billing_thresholds', 'cancel_at', 'cancel_at_period_end',
  'cancellation_details', 'collection_method', 'days_until_due', 'default_payment_method',
  'default_source', 'default_tax_rates', 'description', 'discounts', 'expand', 'invoice_settings',
  'items', 'metadata', 'off_session', 'on_behalf_of', 'pause_collection', 'payment_behavior',
  'payment_settings', 'pending_invoice_item_interval', 'proration_behavior', 'proration_date',
  'transfer_data', 'trial_end', 'trial_from_plan', 'trial_settings',
];
// prettier-ignore
const SUBSCRIPTION_UPDATE_IMPLEMENTED = [
  'cancel_at_period_end', 'cancellation_details', 'description', 'expand', 'metadata',
  'proration_behavior',
];
const SUBSCRIPTION_CANCEL_PARAMS = ['cancellation_details', 'expand', 'invoice_now', 'prorate'];
// prettier-ignore
const CANCELLATION_FEEDBACK = [
  'customer_service', 'low_quality', 'missing_features', 'other', 'switched_service',
  'too_complex', 'too_expensive', 'unused',
] as const;
const INTERVALS = ['day', 'month', 'week', 'year'] as const;
type Interval = (typeof INTERVALS)[number];

// ---------------------------------------------------------------------------------------------
// Stored state (internal shapes; render* functions produce the wire JSON)

interface PriceState {
  id: string;
  productId: string;
  productName: string;
  currency: string;
  unitAmount: number;
  recurring: { interval: Interval; intervalCount: number } | null;
  taxBehavior: string;
  created: number;
}

interface LineItemState {
  id: string;
  price: PriceState;
  quantity: number;
  description: string;
}

interface SessionState {
  id: string;
  created: number;
  expiresAt: number;
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  paymentStatus: 'unpaid' | 'paid';
  lineItems: LineItemState[];
  currency: string;
  amountTotal: number;
  customerParam: string | null;
  customerCreation: 'always' | 'if_required' | null;
  customerEmail: string | null;
  clientReferenceId: string | null;
  metadata: Record<string, string>;
  successUrl: string;
  cancelUrl: string | null;
  locale: string | null;
  allowPromotionCodes: boolean | null;
  billingAddressCollection: string | null;
  subscriptionData: { metadata: Record<string, string>; description: string | null };
  paymentIntentData: {
    metadata: Record<string, string>;
    description: string | null;
    receiptEmail: string | null;
  };
  customer: string | null;
  customerDetails: { email: string; name: string } | null;
  subscription: string | null;
  invoice: string | null;
  paymentIntent: string | null;
}

interface CustomerState {
  id: string;
  created: number;
  email: string | null;
  name: string | null;
  metadata: Record<string, string>;
  invoicePrefix: string;
  invoiceCount: number;
}

interface SubscriptionItemState {
  id: string;
  created: number;
  price: PriceState;
  quantity: number;
}

interface SubscriptionState {
  id: string;
  created: number;
  customer: string;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
  items: SubscriptionItemState[];
  interval: Interval;
  intervalCount: number;
  /** Billing anchor; period k runs from anchor + k intervals to anchor + k+1 intervals. */
  anchor: number;
  periodIndex: number;
  status: 'active' | 'canceled';
  cancelAtPeriodEnd: boolean;
  cancelAt: number | null;
  canceledAt: number | null;
  endedAt: number | null;
  cancellation: { comment: string | null; feedback: string | null; reason: string | null };
  latestInvoice: string | null;
  defaultPaymentMethod: string;
}

interface InvoiceState {
  id: string;
  number: string;
  created: number;
  customer: string;
  customerEmail: string | null;
  customerName: string | null;
  subscription: string;
  subscriptionMetadata: Record<string, string>;
  billingReason: 'subscription_create' | 'subscription_cycle';
  currency: string;
  periodStart: number;
  periodEnd: number;
  lines: Array<{
    id: string;
    item: SubscriptionItemState;
    amount: number;
    period: { start: number; end: number };
  }>;
  total: number;
}

interface PaymentIntentState {
  id: string;
  created: number;
  amount: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  receiptEmail: string | null;
  latestCharge: string;
  paymentMethod: string;
}

interface ChargeState {
  id: string;
  created: number;
  amount: number;
  amountRefunded: number;
  currency: string;
  customer: string | null;
  description: string | null;
  metadata: Record<string, string>;
  paymentIntent: string;
  paymentMethod: string;
  billingEmail: string;
  billingName: string;
  receiptEmail: string | null;
}

interface RequestContext {
  requestId: string;
  idempotencyKey: string | null;
}

// ---------------------------------------------------------------------------------------------
// Calendar arithmetic as Stripe bills: monthly anchors clamp to the month's last day.

function addInterval(anchor: number, interval: Interval, count: number): number {
  if (interval === 'day') return anchor + count * 86_400;
  if (interval === 'week') return anchor + count * 7 * 86_400;
  const months = interval === 'month' ? count : count * 12;
  const d = new Date(anchor * 1000);
  const total = d.getUTCMonth() + months;
  const year = d.getUTCFullYear() + Math.floor(total / 12);
  const month = ((total % 12) + 12) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000;
}

function periodOf(sub: SubscriptionState, index = sub.periodIndex): { start: number; end: number } {
  return {
    start: addInterval(sub.anchor, sub.interval, index * sub.intervalCount),
    end: addInterval(sub.anchor, sub.interval, (index + 1) * sub.intervalCount),
  };
}

/** Stripe's 401 message shows the key's prefix and last four characters only. */
function maskKey(key: string): string {
  if (key.length <= 12) return key.replace(/./g, '*');
  return `${key.slice(0, 8)}${'*'.repeat(key.length - 12)}${key.slice(-4)}`;
}

function formatMoney(cents: number, currency: string): string {
  const symbol = currency === 'usd' ? '$' : currency === 'eur' ? '€' : `${currency.toUpperCase()} `;
  return `${symbol}${(cents / 100).toFixed(2)}`;
}

// ---------------------------------------------------------------------------------------------

/** Starts a fake Stripe on 127.0.0.1 with a random port. */
export async function startStripeFake(): Promise<StripeFake> {
  const secretKey = `sk_test_fake_${randomToken(24)}`;
  const webhookSecret = `whsec_${randomToken(32)}`;
  const apiVersion = Stripe.API_VERSION;

  const requests: StripeFakeRequest[] = [];
  const sessions = new Map<string, SessionState>();
  const customers = new Map<string, CustomerState>();
  const subscriptions = new Map<string, SubscriptionState>();
  const invoices = new Map<string, InvoiceState>();
  const paymentIntents = new Map<string, PaymentIntentState>();
  const charges = new Map<string, ChargeState>();
  /** Idempotency-Key → first request and its answer, replayed for retries as Stripe does. */
  const idempotency = new Map<
    string,
    { method: string; path: string; rawBody: string; status: number; body: string }
  >();
  let pending: SignedEvent[] = [];
  let url = '';

  // --- event helpers --------------------------------------------------------------------------

  function event(
    type: string,
    object: object,
    previousAttributes?: Record<string, unknown>,
    request: RequestContext | null = null,
  ): StripeEventJson {
    return {
      id: newId('evt'),
      object: 'event',
      api_version: apiVersion,
      created: nowSeconds(),
      // Snapshot: later mutations of the stored object must not leak into a sent event.
      data: {
        object: structuredClone(object) as Record<string, unknown>,
        ...(previousAttributes ? { previous_attributes: previousAttributes } : {}),
      },
      livemode: false,
      pending_webhooks: 1,
      request: { id: request?.requestId ?? null, idempotency_key: request?.idempotencyKey ?? null },
      type,
    };
  }

  function sign(evt: object, opts: { timestamp?: number; secret?: string } = {}): SignedEvent {
    // Stripe posts pretty-printed JSON (two-space indent); the signature covers these exact bytes.
    const payload = JSON.stringify(evt, null, 2);
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: opts.secret ?? webhookSecret,
      timestamp: opts.timestamp ?? nowSeconds(),
    });
    return { event: evt as StripeEventJson, payload, header };
  }

  // --- renderers (wire JSON) ------------------------------------------------------------------

  function renderPrice(p: PriceState): Json {
    return {
      id: p.id,
      object: 'price',
      active: false, // price_data creates an inline, archived price
      billing_scheme: 'per_unit',
      created: p.created,
      currency: p.currency,
      custom_unit_amount: null,
      livemode: false,
      lookup_key: null,
      metadata: {},
      nickname: null,
      product: p.productId,
      recurring: p.recurring
        ? {
            interval: p.recurring.interval,
            interval_count: p.recurring.intervalCount,
            meter: null,
            trial_period_days: null,
            usage_type: 'licensed',
          }
        : null,
      tax_behavior: p.taxBehavior,
      tiers_mode: null,
      transform_quantity: null,
      type: p.recurring ? 'recurring' : 'one_time',
      unit_amount: p.unitAmount,
      unit_amount_decimal: String(p.unitAmount),
    };
  }

  function renderPlan(p: PriceState): Json {
    return {
      id: p.id,
      object: 'plan',
      active: false,
      amount: p.unitAmount,
      amount_decimal: String(p.unitAmount),
      billing_scheme: 'per_unit',
      created: p.created,
      currency: p.currency,
      interval: p.recurring?.interval ?? 'month',
      interval_count: p.recurring?.intervalCount ?? 1,
      livemode: false,
      metadata: {},
      meter: null,
      nickname: null,
      product: p.productId,
      tiers_mode: null,
      transform_usage: null,
      trial_period_days: null,
      usage_type: 'licensed',
    };
  }

  function renderSessionLineItems(s: SessionState): Json {
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

  function renderSession(s: SessionState): Json {
    return {
      id: s.id,
      object: 'checkout.session',
      adaptive_pricing: null,
      after_expiration: null,
      allow_promotion_codes: s.allowPromotionCodes,
      amount_subtotal: s.amountTotal,
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
      discounts: [],
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
      total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
      ui_mode: 'hosted_page',
      // The hosted page link is only usable while the session is open.
      url: s.status === 'open' ? `${url}/c/pay/${s.id}` : null,
      wallet_options: null,
    };
  }

  function renderCustomer(c: CustomerState): Json {
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

  function renderSubscription(sub: SubscriptionState): Json {
    const period = periodOf(sub);
    return {
      id: sub.id,
      object: 'subscription',
      application: null,
      application_fee_percent: null,
      automatic_tax: { disabled_reason: null, enabled: false, liability: null },
      billing_cycle_anchor: sub.anchor,
      billing_cycle_anchor_config: null,
      billing_mode: {
        flexible: { proration_discounts: 'included' },
        type: 'flexible',
        updated_at: sub.created,
      },
      billing_schedules: [],
      billing_thresholds: null,
      cancel_at: sub.cancelAt,
      cancel_at_period_end: sub.cancelAtPeriodEnd,
      canceled_at: sub.canceledAt,
      cancellation_details: { ...sub.cancellation },
      collection_method: 'charge_automatically',
      created: sub.created,
      currency: sub.currency,
      // Removed from the API in 2025-03-31.basil; mirrored for readers written against older shapes.
      current_period_end: period.end,
      current_period_start: period.start,
      customer: sub.customer,
      customer_account: null,
      days_until_due: null,
      default_payment_method: sub.defaultPaymentMethod,
      default_source: null,
      default_tax_rates: [],
      description: sub.description,
      discounts: [],
      ended_at: sub.endedAt,
      invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
      items: {
        object: 'list',
        data: sub.items.map((item) => ({
          id: item.id,
          object: 'subscription_item',
          billing_thresholds: null,
          created: item.created,
          current_period_end: period.end,
          current_period_start: period.start,
          current_trial: null,
          discounts: [],
          metadata: {},
          plan: renderPlan(item.price),
          price: renderPrice(item.price),
          quantity: item.quantity,
          subscription: sub.id,
          tax_rates: [],
        })),
        has_more: false,
        total_count: sub.items.length,
        url: `/v1/subscription_items?subscription=${sub.id}`,
      },
      latest_invoice: sub.latestInvoice,
      livemode: false,
      managed_payments: null,
      metadata: { ...sub.metadata },
      next_pending_invoice_item_invoice: null,
      on_behalf_of: null,
      pause_collection: null,
      payment_settings: {
        payment_method_options: null,
        payment_method_types: null,
        save_default_payment_method: 'off',
      },
      pending_invoice_item_interval: null,
      pending_setup_intent: null,
      pending_update: null,
      schedule: null,
      start_date: sub.created,
      status: sub.status,
      test_clock: null,
      transfer_data: null,
      trial_end: null,
      trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
      trial_start: null,
    };
  }

  function renderInvoice(inv: InvoiceState): Json {
    return {
      id: inv.id,
      object: 'invoice',
      account_country: 'US',
      account_name: 'Fake Stripe Account',
      account_tax_ids: null,
      amount_due: inv.total,
      amount_overpaid: 0,
      amount_paid: inv.total,
      amount_remaining: 0,
      amount_shipping: 0,
      application: null,
      attempt_count: 1,
      attempted: true,
      auto_advance: false,
      automatic_tax: {
        disabled_reason: null,
        enabled: false,
        liability: null,
        provider: null,
        status: null,
      },
      automatically_finalizes_at: null,
      billing_reason: inv.billingReason,
      collection_method: 'charge_automatically',
      created: inv.created,
      currency: inv.currency,
      custom_fields: null,
      customer: inv.customer,
      customer_account: null,
      customer_address: null,
      customer_email: inv.customerEmail,
      customer_name: inv.customerName,
      customer_phone: null,
      customer_shipping: null,
      customer_tax_exempt: 'none',
      customer_tax_ids: [],
      default_payment_method: null,
      default_source: null,
      default_tax_rates: [],
      description: null,
      discounts: [],
      due_date: null,
      effective_at: inv.created,
      ending_balance: 0,
      footer: null,
      from_invoice: null,
      hosted_invoice_url: `${url}/i/${inv.id}`,
      invoice_pdf: `${url}/i/${inv.id}/pdf`,
      issuer: { type: 'self' },
      last_finalization_error: null,
      latest_revision: null,
      lines: {
        object: 'list',
        data: inv.lines.map((line) => ({
          id: line.id,
          object: 'line_item',
          amount: line.amount,
          currency: inv.currency,
          description: `${line.item.quantity} × ${line.item.price.productName} (at ${formatMoney(line.item.price.unitAmount, inv.currency)} / ${line.item.price.recurring?.interval ?? 'month'})`,
          discount_amounts: [],
          discountable: true,
          discounts: [],
          invoice: inv.id,
          livemode: false,
          metadata: { ...inv.subscriptionMetadata },
          parent: {
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: false,
              proration_details: { credited_items: null },
              subscription: inv.subscription,
              subscription_item: line.item.id,
            },
            type: 'subscription_item_details',
          },
          period: { ...line.period },
          pretax_credit_amounts: [],
          pricing: {
            price_details: { price: line.item.price.id, product: line.item.price.productId },
            type: 'price_details',
            unit_amount_decimal: String(line.item.price.unitAmount),
          },
          quantity: line.item.quantity,
          subtotal: line.amount,
          taxes: [],
        })),
        has_more: false,
        total_count: inv.lines.length,
        url: `/v1/invoices/${inv.id}/lines`,
      },
      livemode: false,
      metadata: {},
      next_payment_attempt: null,
      number: inv.number,
      on_behalf_of: null,
      parent: {
        quote_details: null,
        subscription_details: {
          metadata: { ...inv.subscriptionMetadata },
          subscription: inv.subscription,
        },
        type: 'subscription_details',
      },
      payment_settings: {
        default_mandate: null,
        payment_method_options: null,
        payment_method_types: null,
      },
      period_end: inv.periodEnd,
      period_start: inv.periodStart,
      post_payment_credit_notes_amount: 0,
      pre_payment_credit_notes_amount: 0,
      receipt_number: null,
      rendering: null,
      shipping_cost: null,
      shipping_details: null,
      starting_balance: 0,
      statement_descriptor: null,
      status: 'paid',
      status_transitions: {
        finalized_at: inv.created,
        marked_uncollectible_at: null,
        paid_at: inv.created,
        voided_at: null,
      },
      // Removed in 2025-03-31.basil (moved to parent.subscription_details); some accounts still
      // send it, so readers must cope with both.
      subscription: inv.subscription,
      subtotal: inv.total,
      subtotal_excluding_tax: inv.total,
      test_clock: null,
      total: inv.total,
      total_discount_amounts: [],
      total_excluding_tax: inv.total,
      total_pretax_credit_amounts: [],
      total_taxes: [],
      webhooks_delivered_at: inv.created,
    };
  }

  function renderPaymentIntent(pi: PaymentIntentState): Json {
    return {
      id: pi.id,
      object: 'payment_intent',
      amount: pi.amount,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: pi.amount,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: 'automatic_async',
      client_secret: `${pi.id}_secret_${randomToken(25)}`,
      confirmation_method: 'automatic',
      created: pi.created,
      currency: pi.currency,
      customer: pi.customer,
      customer_account: null,
      description: pi.description,
      last_payment_error: null,
      latest_charge: pi.latestCharge,
      livemode: false,
      metadata: { ...pi.metadata },
      next_action: null,
      on_behalf_of: null,
      payment_method: pi.paymentMethod,
      payment_method_options: {},
      payment_method_types: ['card'],
      processing: null,
      receipt_email: pi.receiptEmail,
      review: null,
      setup_future_usage: null,
      shipping: null,
      source: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
  }

  function renderCharge(ch: ChargeState): Json {
    return {
      id: ch.id,
      object: 'charge',
      amount: ch.amount,
      amount_captured: ch.amount,
      amount_refunded: ch.amountRefunded,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: null,
      billing_details: {
        address: null,
        email: ch.billingEmail,
        name: ch.billingName,
        phone: null,
        tax_id: null,
      },
      calculated_statement_descriptor: 'FAKE STRIPE',
      captured: true,
      created: ch.created,
      currency: ch.currency,
      customer: ch.customer,
      description: ch.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: null,
      failure_message: null,
      fraud_details: {},
      livemode: false,
      metadata: { ...ch.metadata },
      on_behalf_of: null,
      outcome: {
        advice_code: null,
        network_advice_code: null,
        network_decline_code: null,
        network_status: 'approved_by_network',
        reason: null,
        risk_level: 'normal',
        seller_message: 'Payment complete.',
        type: 'authorized',
      },
      paid: true,
      payment_intent: ch.paymentIntent,
      payment_method: ch.paymentMethod,
      payment_method_details: {
        card: {
          brand: 'visa',
          country: 'US',
          exp_month: 12,
          exp_year: 2034,
          funding: 'credit',
          last4: '4242',
        },
        type: 'card',
      },
      receipt_email: ch.receiptEmail,
      receipt_number: null,
      receipt_url: `${url}/receipts/${ch.id}`,
      refunded: ch.amountRefunded === ch.amount,
      review: null,
      shipping: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
  }

  /** Any stored object by id, for `expand[]`. */
  function renderById(id: string): Json | undefined {
    const s = sessions.get(id);
    if (s) return renderSession(s);
    const c = customers.get(id);
    if (c) return renderCustomer(c);
    const sub = subscriptions.get(id);
    if (sub) return renderSubscription(sub);
    const inv = invoices.get(id);
    if (inv) return renderInvoice(inv);
    const pi = paymentIntents.get(id);
    if (pi) return renderPaymentIntent(pi);
    const ch = charges.get(id);
    if (ch) return renderCharge(ch);
    return undefined;
  }

  /** `expand[]=subscription`, `expand[]=subscription.latest_invoice`, `expand[]=line_items`. */
  function applyExpand(obj: Json, params: FormObject): Json {
    const expand = readArray(params, 'expand', '') ?? [];
    for (const entry of expand) {
      if (typeof entry !== 'string') throw invalid('Invalid array', 'expand');
      let target: Json = obj;
      const parts = entry.split('.');
      for (const [i, field] of parts.entries()) {
        const value = target[field];
        if (obj.object === 'checkout.session' && i === 0 && field === 'line_items') {
          const session = sessions.get(String(obj.id));
          if (session) target[field] = renderSessionLineItems(session);
          break;
        }
        if (value === null && i === parts.length - 1) break;
        let expanded: Json | undefined;
        if (typeof value === 'string' && field !== 'id') expanded = renderById(value);
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

  // --- API handlers ---------------------------------------------------------------------------

  function parseLineItems(raw: FormValue[], mode: SessionState['mode']): LineItemState[] {
    const now = nowSeconds();
    return raw.map((value, index) => {
      const prefix = `line_items[${index}]`;
      if (!isFormObject(value)) throw invalid('Invalid object', prefix);
      checkKeys(value, prefix, LINE_ITEM_PARAMS, LINE_ITEM_IMPLEMENTED);
      const priceId = readString(value, 'price', prefix);
      const priceData = readHash(value, 'price_data', prefix);
      if (priceId !== undefined && priceData !== undefined) {
        throw invalid(`You may only specify one of these parameters: price, price_data.`, prefix);
      }
      // The fake has no product catalogue: every stored price id is unknown.
      if (priceId !== undefined) throw noSuch('price', priceId, paramPath(prefix, 'price'));
      if (priceData === undefined) {
        throw invalid(
          `You must specify either \`price\` or \`price_data\` in \`${prefix}\`.`,
          prefix,
        );
      }
      const pdPrefix = paramPath(prefix, 'price_data');
      checkKeys(priceData, pdPrefix, PRICE_DATA_PARAMS, PRICE_DATA_IMPLEMENTED);
      const currency = readString(priceData, 'currency', pdPrefix);
      if (currency === undefined) throw missingParam(paramPath(pdPrefix, 'currency'));
      if (!/^[a-z]{3}$/i.test(currency)) {
        throw invalid(
          `Invalid currency: ${currency.toLowerCase()}.`,
          paramPath(pdPrefix, 'currency'),
        );
      }
      const unitAmount = readInt(priceData, 'unit_amount', pdPrefix, 0);
      if (unitAmount === undefined) throw missingParam(paramPath(pdPrefix, 'unit_amount'));
      const product = readString(priceData, 'product', pdPrefix);
      const productData = readHash(priceData, 'product_data', pdPrefix);
      if (product !== undefined) throw noSuch('product', product, paramPath(pdPrefix, 'product'));
      if (productData === undefined) {
        throw invalid(
          'You must specify either `product` or `product_data` when creating a price.',
          pdPrefix,
        );
      }
      const prodPrefix = paramPath(pdPrefix, 'product_data');
      checkKeys(productData, prodPrefix, PRODUCT_DATA_PARAMS, PRODUCT_DATA_IMPLEMENTED);
      const name = readString(productData, 'name', prodPrefix);
      if (name === undefined) throw missingParam(paramPath(prodPrefix, 'name'));
      readString(productData, 'description', prodPrefix);
      readMetadata(productData, 'metadata', prodPrefix);
      readArray(productData, 'images', prodPrefix);
      const taxBehavior =
        readEnum(priceData, 'tax_behavior', pdPrefix, ['exclusive', 'inclusive', 'unspecified']) ??
        'unspecified';
      const recurringRaw = readHash(priceData, 'recurring', pdPrefix);
      let recurring: PriceState['recurring'] = null;
      if (recurringRaw !== undefined) {
        const rPrefix = paramPath(pdPrefix, 'recurring');
        checkKeys(
          recurringRaw,
          rPrefix,
          ['interval', 'interval_count'],
          ['interval', 'interval_count'],
        );
        const interval = readEnum(recurringRaw, 'interval', rPrefix, INTERVALS);
        if (interval === undefined) throw missingParam(paramPath(rPrefix, 'interval'));
        const intervalCount = readInt(recurringRaw, 'interval_count', rPrefix, 1) ?? 1;
        const maxCount = { day: 1095, week: 156, month: 36, year: 3 }[interval];
        if (intervalCount > maxCount) {
          throw invalid(
            'The maximum billing interval is 3 years.',
            paramPath(rPrefix, 'interval_count'),
          );
        }
        recurring = { interval, intervalCount };
      }
      if (recurring && mode === 'payment') {
        throw invalid(
          'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
          paramPath(pdPrefix, 'recurring'),
        );
      }
      const quantity = readInt(value, 'quantity', prefix, 0);
      if (quantity === undefined) {
        throw invalid(
          `Quantity is required. Add \`quantity\` to \`${prefix}\``,
          paramPath(prefix, 'quantity'),
        );
      }
      if (quantity < 1 || quantity > 999_999) {
        throw invalid('Quantity must be between 1 and 999999.', paramPath(prefix, 'quantity'));
      }
      readMetadata(value, 'metadata', prefix);
      return {
        id: newId('li'),
        quantity,
        description: name,
        price: {
          id: newId('price'),
          productId: newId('prod', 14),
          productName: name,
          currency: currency.toLowerCase(),
          unitAmount,
          recurring,
          taxBehavior,
          created: now,
        },
      };
    });
  }

  function createSession(params: FormObject): Json {
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
    if (customerParam !== null && !customers.has(customerParam)) {
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
    const amountTotal = lineItems.reduce((sum, li) => sum + li.price.unitAmount * li.quantity, 0);
    if (mode === 'payment' && currency === 'usd' && amountTotal < 50) {
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
      allowPromotionCodes: readBool(params, 'allow_promotion_codes', '') ?? null,
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
    sessions.set(session.id, session);
    return applyExpand(renderSession(session), params);
  }

  function getSession(id: string): SessionState {
    const s = sessions.get(id);
    if (!s) throw noSuch('checkout.session', id, 'session');
    return s;
  }

  function getSubscription(id: string): SubscriptionState {
    const sub = subscriptions.get(id);
    if (!sub) throw noSuch('subscription', id, 'id');
    return sub;
  }

  function expireSession(id: string, params: FormObject, ctx: RequestContext): Json {
    checkKeys(params, '', ['expand'], ['expand']);
    const s = getSession(id);
    if (s.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${s.status}".`,
      );
    }
    s.status = 'expired';
    const rendered = renderSession(s);
    pending.push(sign(event('checkout.session.expired', rendered, undefined, ctx)));
    return applyExpand(renderSession(s), params);
  }

  function readCancellationDetails(params: FormObject): {
    comment?: string | null;
    feedback?: string | null;
  } {
    const raw = readHash(params, 'cancellation_details', '');
    if (raw === undefined) return {};
    checkKeys(raw, 'cancellation_details', ['comment', 'feedback'], ['comment', 'feedback']);
    const out: { comment?: string | null; feedback?: string | null } = {};
    if ('comment' in raw) out.comment = readString(raw, 'comment', 'cancellation_details') ?? null;
    if ('feedback' in raw) {
      out.feedback =
        readEnum(raw, 'feedback', 'cancellation_details', CANCELLATION_FEEDBACK) ?? null;
    }
    return out;
  }

  function cancelSubscription(id: string, params: FormObject, ctx: RequestContext): Json {
    checkKeys(params, '', SUBSCRIPTION_CANCEL_PARAMS, SUBSCRIPTION_CANCEL_PARAMS);
    readBool(params, 'invoice_now', '');
    readBool(params, 'prorate', '');
    const details = readCancellationDetails(params);
    const sub = getSubscription(id);
    // Stripe treats a canceled subscription as deleted: cancelling again is a 404.
    if (sub.status === 'canceled') throw noSuch('subscription', id, 'id');
    const now = nowSeconds();
    sub.status = 'canceled';
    sub.canceledAt = now;
    sub.endedAt = now;
    sub.cancelAt = null;
    sub.cancellation = {
      comment: null,
      feedback: null,
      reason: 'cancellation_requested',
      ...details,
    };
    pending.push(
      sign(event('customer.subscription.deleted', renderSubscription(sub), undefined, ctx)),
    );
    return applyExpand(renderSubscription(sub), params);
  }

  function updateSubscription(id: string, params: FormObject, ctx: RequestContext): Json {
    checkKeys(params, '', SUBSCRIPTION_UPDATE_PARAMS, SUBSCRIPTION_UPDATE_IMPLEMENTED);
    const sub = getSubscription(id);
    const onlyMetaAndDetails = Object.keys(params).every((k) =>
      ['metadata', 'cancellation_details', 'expand'].includes(k),
    );
    if (sub.status === 'canceled' && !onlyMetaAndDetails) {
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
      );
    }
    readEnum(params, 'proration_behavior', '', ['always_invoice', 'create_prorations', 'none']);
    const before = renderSubscription(sub);
    const cancelAtPeriodEnd = readBool(params, 'cancel_at_period_end', '');
    const details = readCancellationDetails(params);
    const metadata = readMetadata(params, 'metadata', '');
    const description =
      params.description === undefined
        ? undefined
        : (readString(params, 'description', '') ?? null);

    if (cancelAtPeriodEnd === true && !sub.cancelAtPeriodEnd) {
      sub.cancelAtPeriodEnd = true;
      sub.cancelAt = periodOf(sub).end;
      sub.canceledAt = nowSeconds();
      sub.cancellation = { ...sub.cancellation, reason: 'cancellation_requested' };
    } else if (cancelAtPeriodEnd === false && sub.cancelAtPeriodEnd) {
      sub.cancelAtPeriodEnd = false;
      sub.cancelAt = null;
      sub.canceledAt = null;
      sub.cancellation = { comment: null, feedback: null, reason: null };
    }
    sub.cancellation = { ...sub.cancellation, ...details };
    if (metadata !== undefined) {
      // `metadata=` clears everything; `metadata[k]=` deletes one key; others merge.
      if (Object.keys(metadata).length === 0 && params.metadata === '') sub.metadata = {};
      for (const [k, v] of Object.entries(metadata)) {
        if (v === null) delete sub.metadata[k];
        else sub.metadata[k] = v;
      }
    }
    if (description !== undefined) sub.description = description;

    const after = renderSubscription(sub);
    const previous = diffTopLevel(before, after);
    if (Object.keys(previous).length > 0) {
      pending.push(sign(event('customer.subscription.updated', after, previous, ctx)));
    }
    return applyExpand(renderSubscription(sub), params);
  }

  // --- HTTP plumbing --------------------------------------------------------------------------

  function route(method: string, path: string, params: FormObject, ctx: RequestContext): Json {
    let m: RegExpExecArray | null;
    if (path === '/v1/checkout/sessions' && method === 'POST') return createSession(params);
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)) && method === 'GET') {
      checkKeys(params, '', ['expand'], ['expand']);
      return applyExpand(renderSession(getSession(decodeURIComponent(m[1] ?? ''))), params);
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/line_items$/.exec(path)) && method === 'GET') {
      return renderSessionLineItems(getSession(decodeURIComponent(m[1] ?? '')));
    }
    if ((m = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path)) && method === 'POST') {
      return expireSession(decodeURIComponent(m[1] ?? ''), params, ctx);
    }
    if ((m = /^\/v1\/subscriptions\/([^/]+)$/.exec(path))) {
      const id = decodeURIComponent(m[1] ?? '');
      if (method === 'GET') {
        checkKeys(params, '', ['expand'], ['expand']);
        return applyExpand(renderSubscription(getSubscription(id)), params);
      }
      if (method === 'DELETE') return cancelSubscription(id, params, ctx);
      if (method === 'POST') return updateSubscription(id, params, ctx);
    }
    // prettier-ignore
    const retrievable: Array<[RegExp, string, (id: string) => Json | undefined]> = [
      [/^\/v1\/customers\/([^/]+)$/, 'customer', (id) => customers.has(id) ? renderById(id) : undefined],
      [/^\/v1\/invoices\/([^/]+)$/, 'invoice', (id) => invoices.has(id) ? renderById(id) : undefined],
      [/^\/v1\/payment_intents\/([^/]+)$/, 'payment_intent', (id) => paymentIntents.has(id) ? renderById(id) : undefined],
      [/^\/v1\/charges\/([^/]+)$/, 'charge', (id) => charges.has(id) ? renderById(id) : undefined],
    ];
    for (const [pattern, kind, find] of retrievable) {
      if ((m = pattern.exec(path)) && method === 'GET') {
        checkKeys(params, '', ['expand'], ['expand']);
        const id = decodeURIComponent(m[1] ?? '');
        const found = find(id);
        if (!found) throw noSuch(kind, id, 'id');
        return applyExpand(found, params);
      }
    }
    throw new ApiError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    });
  }

  function authenticate(req: IncomingMessage): void {
    const header = req.headers.authorization;
    if (!header) {
      throw new ApiError(401, {
        type: 'invalid_request_error',
        message:
          "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      });
    }
    let key = '';
    const bearer = /^Bearer (.*)$/i.exec(header);
    if (bearer) key = bearer[1] ?? '';
    // curl -u sk_...: is Basic auth with the key as the user name; Stripe accepts it too.
    const basic = /^Basic (.*)$/i.exec(header);
    if (basic)
      key =
        Buffer.from(basic[1] ?? '', 'base64')
          .toString()
          .split(':')[0] ?? '';
    if (key !== secretKey) {
      throw new ApiError(401, {
        type: 'invalid_request_error',
        message: `Invalid API Key provided: ${maskKey(key)}`,
      });
    }
  }

  function send(
    res: ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string>,
  ): void {
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('content-type', 'application/json');
    res.setHeader('content-length', Buffer.byteLength(body));
    res.end(body);
  }

  function renderHostedPage(id: string, res: ServerResponse): void {
    const s = sessions.get(id);
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

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const target = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = target.pathname;

    const hosted = /^\/c\/pay\/([^/]+)$/.exec(path);
    if (hosted && method === 'GET')
      return renderHostedPage(decodeURIComponent(hosted[1] ?? ''), res);

    const requestId = newId('req', 14);
    const idempotencyKey = header(req, 'idempotency-key');
    const stripeVersion = header(req, 'stripe-version');
    const headers: Record<string, string> = {
      'request-id': requestId,
      'stripe-version': stripeVersion ?? apiVersion,
      'access-control-allow-origin': '*',
    };
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;

    const rawParams = method === 'POST' ? rawBody : target.search.slice(1);
    const record: StripeFakeRequest = { method, path, body: {}, idempotencyKey, stripeVersion };
    requests.push(record);
    try {
      record.body = parseForm(rawParams);
    } catch {
      // Unparseable bodies are answered below, after authentication, as Stripe orders it.
    }

    try {
      authenticate(req);
      const params = parseForm(rawParams);

      if (idempotencyKey && method === 'POST') {
        const previous = idempotency.get(idempotencyKey);
        if (previous) {
          if (
            previous.method !== method ||
            previous.path !== path ||
            previous.rawBody !== rawBody
          ) {
            throw new ApiError(400, {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
            });
          }
          return send(res, previous.status, previous.body, {
            ...headers,
            'idempotent-replayed': 'true',
          });
        }
      }

      const ctx: RequestContext = { requestId, idempotencyKey };
      const body = JSON.stringify(route(method, path, params, ctx), null, 2);
      if (idempotencyKey && method === 'POST') {
        idempotency.set(idempotencyKey, { method, path, rawBody, status: 200, body });
      }
      send(res, 200, body, headers);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const body = JSON.stringify(
        { error: { ...err.body, request_log_url: `${url}/logs/${requestId}` } },
        null,
        2,
      );
      // Failed validation is not saved under the idempotency key (Stripe only saves results of
      // requests that began executing), so a corrected retry with the same key goes through.
      if (err.status === 401) headers['www-authenticate'] = 'Basic realm="Stripe"';
      send(res, err.status, body, headers);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      // A crash in the fake is a bug in the fake: answer like a Stripe outage and keep serving.
      console.error('stripe fake crashed:', err);
      if (!res.headersSent) {
        send(res, 500, JSON.stringify({ error: { type: 'api_error', message: String(err) } }), {});
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}`;

  // --- simulations of what happens on Stripe's side -------------------------------------------

  function ensureCustomer(s: SessionState, buyer: { email: string; name: string }): CustomerState {
    const existing = s.customerParam ? customers.get(s.customerParam) : undefined;
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
    customers.set(c.id, c);
    return c;
  }

  function issueInvoice(
    sub: SubscriptionState,
    billingReason: InvoiceState['billingReason'],
    invoicePeriod: { start: number; end: number },
    linePeriod: { start: number; end: number },
    created: number,
  ): InvoiceState {
    const customer = customers.get(sub.customer);
    if (customer) customer.invoiceCount += 1;
    const lines = sub.items.map((item) => ({
      id: newId('il'),
      item,
      amount: item.price.unitAmount * item.quantity,
      period: linePeriod,
    }));
    const inv: InvoiceState = {
      id: newId('in'),
      number: `${customer?.invoicePrefix ?? 'FAKE'}-${String(customer?.invoiceCount ?? 1).padStart(4, '0')}`,
      created,
      customer: sub.customer,
      customerEmail: customer?.email ?? null,
      customerName: customer?.name ?? null,
      subscription: sub.id,
      subscriptionMetadata: { ...sub.metadata },
      billingReason,
      currency: sub.currency,
      periodStart: invoicePeriod.start,
      periodEnd: invoicePeriod.end,
      lines,
      total: lines.reduce((sum, l) => sum + l.amount, 0),
    };
    invoices.set(inv.id, inv);
    sub.latestInvoice = inv.id;
    return inv;
  }

  function completeCheckout(
    sessionId: string,
    buyerIn: { email?: string; name?: string } = {},
  ): SignedEvent[] {
    const s = sessions.get(sessionId);
    if (!s) throw new Error(`stripe fake: unknown checkout session ${sessionId}`);
    if (s.status !== 'open')
      throw new Error(`stripe fake: session ${sessionId} is ${s.status}, not open`);
    const existing = s.customerParam ? customers.get(s.customerParam) : undefined;
    const buyer = {
      email: buyerIn.email ?? s.customerEmail ?? existing?.email ?? 'buyer@example.com',
      name: buyerIn.name ?? existing?.name ?? 'Test Buyer',
    };
    const now = nowSeconds();
    const paymentMethod = newId('pm');
    s.customerDetails = buyer;
    s.status = 'complete';
    s.paymentStatus = 'paid';

    if (s.mode === 'payment') {
      // Payment mode only makes a Customer when asked (customer_creation=always or customer=…);
      // otherwise Stripe records a guest and session.customer stays null.
      const customer =
        s.customerParam !== null || s.customerCreation === 'always'
          ? ensureCustomer(s, buyer)
          : null;
      s.customer = customer?.id ?? null;
      const pi: PaymentIntentState = {
        id: newId('pi'),
        created: now,
        amount: s.amountTotal,
        currency: s.currency,
        customer: s.customer,
        description: s.paymentIntentData.description,
        metadata: { ...s.paymentIntentData.metadata },
        receiptEmail: s.paymentIntentData.receiptEmail,
        latestCharge: newId('ch'),
        paymentMethod,
      };
      paymentIntents.set(pi.id, pi);
      charges.set(pi.latestCharge, {
        id: pi.latestCharge,
        created: now,
        amount: pi.amount,
        amountRefunded: 0,
        currency: pi.currency,
        customer: pi.customer,
        description: pi.description,
        metadata: { ...pi.metadata },
        paymentIntent: pi.id,
        paymentMethod,
        billingEmail: buyer.email,
        billingName: buyer.name,
        receiptEmail: pi.receiptEmail,
      });
      s.paymentIntent = pi.id;
      return [sign(event('checkout.session.completed', renderSession(s)))];
    }

    const customer = ensureCustomer(s, buyer);
    s.customer = customer.id;
    const recurringItems = s.lineItems.filter((li) => li.price.recurring);
    const firstRecurring = recurringItems[0]?.price.recurring;
    if (!firstRecurring)
      throw new Error('stripe fake: subscription session without recurring price');
    const sub: SubscriptionState = {
      id: newId('sub'),
      created: now,
      customer: customer.id,
      currency: s.currency,
      description: s.subscriptionData.description,
      metadata: { ...s.subscriptionData.metadata },
      items: recurringItems.map((li) => ({
        id: newId('si', 14),
        created: now,
        price: li.price,
        quantity: li.quantity,
      })),
      interval: firstRecurring.interval,
      intervalCount: firstRecurring.intervalCount,
      anchor: now,
      periodIndex: 0,
      status: 'active',
      cancelAtPeriodEnd: false,
      cancelAt: null,
      canceledAt: null,
      endedAt: null,
      cancellation: { comment: null, feedback: null, reason: null },
      latestInvoice: null,
      defaultPaymentMethod: paymentMethod,
    };
    subscriptions.set(sub.id, sub);
    // The first invoice covers the instant of creation; its line covers the first period.
    const inv = issueInvoice(
      sub,
      'subscription_create',
      { start: now, end: now },
      periodOf(sub),
      now,
    );
    s.subscription = sub.id;
    s.invoice = inv.id;
    return [
      sign(event('customer.subscription.created', renderSubscription(sub))),
      sign(event('invoice.paid', renderInvoice(inv))),
      sign(event('checkout.session.completed', renderSession(s))),
    ];
  }

  function renewSubscription(subscriptionId: string): SignedEvent[] {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`stripe fake: unknown subscription ${subscriptionId}`);
    if (sub.status !== 'active')
      throw new Error(`stripe fake: subscription ${subscriptionId} is ${sub.status}`);
    const ending = periodOf(sub);
    if (sub.cancelAtPeriodEnd) {
      // No renewal: Stripe ends the subscription at the period boundary and bills nothing.
      sub.status = 'canceled';
      sub.endedAt = ending.end;
      return [sign(event('customer.subscription.deleted', renderSubscription(sub)))];
    }
    sub.periodIndex += 1;
    // A cycle invoice's own period is the period that just ended (where usage would accrue);
    // the licensed line item is billed in advance for the new period.
    const inv = issueInvoice(sub, 'subscription_cycle', ending, periodOf(sub), ending.end);
    return [sign(event('invoice.paid', renderInvoice(inv)))];
  }

  function refundCheckout(sessionId: string, amountCents?: number): SignedEvent[] {
    const s = sessions.get(sessionId);
    if (!s?.paymentIntent)
      throw new Error(`stripe fake: session ${sessionId} has no payment to refund`);
    const pi = paymentIntents.get(s.paymentIntent);
    const ch = pi ? charges.get(pi.latestCharge) : undefined;
    if (!ch) throw new Error(`stripe fake: no charge behind session ${sessionId}`);
    const remaining = ch.amount - ch.amountRefunded;
    const amount = amountCents ?? remaining;
    if (!Number.isInteger(amount) || amount <= 0 || amount > remaining) {
      throw new Error(`stripe fake: cannot refund ${amount} of ${remaining} remaining on ${ch.id}`);
    }
    const previous = { amount_refunded: ch.amountRefunded, refunded: false };
    ch.amountRefunded += amount;
    return [sign(event('charge.refunded', renderCharge(ch), previous))];
  }

  return {
    url,
    port,
    secretKey,
    webhookSecret,
    requests,
    completeCheckout,
    renewSubscription,
    refundCheckout,
    takeEvents() {
      const out = pending;
      pending = [];
      return out;
    },
    sign,
    event: (type, object, previousAttributes) => event(type, object, previousAttributes),
    async deliver(endpointUrl, signed) {
      return fetch(endpointUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'stripe-signature': signed.header,
          'cache-control': 'no-cache',
          accept: '*/*; q=0.5, application/xml',
        },
        body: signed.payload,
      });
    },
    close() {
      return new Promise<void>((resolve, reject) => {
        // The SDK keeps sockets alive in a shared agent; drop them so close() returns at once.
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      });
    },
  };
}

function header(req: IncomingMessage, name: string): string | null {
  const v = req.headers[name];
  return typeof v === 'string' ? v : null;
}

/** Stripe's `previous_attributes`: the old value of every top-level field that changed. */
function diffTopLevel(before: Json, after: Json): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(before)) {
    if (JSON.stringify(v) === JSON.stringify(after[k])) continue;
    if (k === 'metadata' && typeof v === 'object' && v !== null) {
      // For metadata Stripe lists only the keys that changed (null for keys that were added).
      const oldMeta = v as Record<string, string>;
      const newMeta = (after[k] ?? {}) as Record<string, string>;
      const changed: Record<string, string | null> = {};
      for (const key of new Set([...Object.keys(oldMeta), ...Object.keys(newMeta)])) {
        if (oldMeta[key] !== newMeta[key]) changed[key] = oldMeta[key] ?? null;
      }
      out[k] = changed;
    } else {
      out[k] = v;
    }
  }
  return out;
}
