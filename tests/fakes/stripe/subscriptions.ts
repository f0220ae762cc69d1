/**
 * Subscriptions for the Stripe fake: the wire JSON (periods live on the items), retrieve, update
 * (cancel at period end, metadata, description) and cancel, each queueing the event Stripe sends.
 */
import { periodOf } from './calendar.ts';
import { invalid, noSuch } from './errors.ts';
import { diffTopLevel, queueEvent } from './events.ts';
import {
  checkKeys,
  readBool,
  readEnum,
  readHash,
  readMetadata,
  readString,
  type FormObject,
  type Json,
} from './form.ts';
import { nowSeconds } from './ids.ts';
import { renderPlan, renderPrice } from './prices.ts';
import type { RequestContext, StripeStore, SubscriptionState } from './state.ts';

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

export function renderSubscription(sub: SubscriptionState): Json {
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
    cancellation_details: {
      comment: sub.cancellation.comment,
      feedback: sub.cancellation.feedback,
      feedback_option: null,
      reason: sub.cancellation.reason,
    },
    collection_method: 'charge_automatically',
    created: sub.created,
    currency: sub.currency,
    customer: sub.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: sub.defaultPaymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: sub.description,
    discounts: [],
    ended_at: sub.endedAt,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
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
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
  };
}

export function getSubscription(store: StripeStore, id: string): SubscriptionState {
  const sub = store.subscriptions.get(id);
  if (!sub) throw noSuch('subscription', id, 'id');
  return sub;
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
    out.feedback = readEnum(raw, 'feedback', 'cancellation_details', CANCELLATION_FEEDBACK) ?? null;
  }
  return out;
}

export function cancelSubscription(
  store: StripeStore,
  id: string,
  params: FormObject,
  ctx: RequestContext,
): Json {
  checkKeys(params, '', SUBSCRIPTION_CANCEL_PARAMS, SUBSCRIPTION_CANCEL_PARAMS);
  readBool(params, 'invoice_now', '');
  readBool(params, 'prorate', '');
  const details = readCancellationDetails(params);
  const sub = getSubscription(store, id);
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
  queueEvent(store, 'customer.subscription.deleted', renderSubscription(sub), undefined, ctx);
  return renderSubscription(sub);
}

export function updateSubscription(
  store: StripeStore,
  id: string,
  params: FormObject,
  ctx: RequestContext,
): Json {
  checkKeys(params, '', SUBSCRIPTION_UPDATE_PARAMS, SUBSCRIPTION_UPDATE_IMPLEMENTED);
  const sub = getSubscription(store, id);
  const onlyMetaAndDetails = Object.keys(params).every((k) =>
    ['metadata', 'cancellation_details', 'expand'].includes(k),
  );
  if (sub.status === 'canceled' && !onlyMetaAndDetails) {
    throw invalid('A canceled subscription can only update its cancellation_details and metadata.');
  }
  readEnum(params, 'proration_behavior', '', ['always_invoice', 'create_prorations', 'none']);
  const before = renderSubscription(sub);
  const cancelAtPeriodEnd = readBool(params, 'cancel_at_period_end', '');
  const details = readCancellationDetails(params);
  const metadata = readMetadata(params, 'metadata', '');
  const description =
    params.description === undefined ? undefined : (readString(params, 'description', '') ?? null);

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
    queueEvent(store, 'customer.subscription.updated', after, previous, ctx);
  }
  return renderSubscription(sub);
}
