/**
 * Refunds for the Stripe fake: `POST /v1/refunds` of a payment intent or charge (all of what is
 * left by default) and `GET /v1/refunds/{id}`, with Stripe's refusals (already refunded, charged
 * back, more than is left). A refund moves the charge's amount_refunded and queues the
 * `charge.refunded` and `refund.created` events Stripe sends for an API refund.
 */
import { ApiError, invalid, noSuch } from './errors.ts';
import { queueEvent } from './events.ts';
import {
  checkKeys,
  createMetadata,
  readEnum,
  readInt,
  readMetadata,
  readString,
  type FormObject,
  type Json,
} from './form.ts';
import { newId, nowSeconds } from './ids.ts';
import { renderCharge } from './payments.ts';
import type { ChargeState, RequestContext, StripeStore } from './state.ts';

interface RefundState {
  id: string;
  created: number;
  amount: number;
  charge: ChargeState;
  reason: (typeof REFUND_REASONS)[number] | null;
  metadata: Record<string, string>;
}

const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;

// Parameter names from the SDK's RefundCreateParams.
// prettier-ignore
const REFUND_CREATE_PARAMS = [
  'amount', 'charge', 'currency', 'customer', 'expand', 'instructions_email', 'metadata', 'origin',
  'payment_intent', 'reason', 'refund_application_fee', 'reverse_transfer',
];
const REFUND_CREATE_IMPLEMENTED = [
  'amount',
  'charge',
  'expand',
  'metadata',
  'payment_intent',
  'reason',
];

/** Each running fake's refunds (the store's shape is shared with other resources). */
const refundsOf = new WeakMap<StripeStore, Map<string, RefundState>>();
const refunds = (store: StripeStore) => {
  let map = refundsOf.get(store);
  if (!map) refundsOf.set(store, (map = new Map()));
  return map;
};

export function renderRefund(r: RefundState): Json {
  return {
    id: r.id,
    object: 'refund',
    amount: r.amount,
    balance_transaction: `txn_${r.id.slice(3)}`,
    charge: r.charge.id,
    created: r.created,
    currency: r.charge.currency,
    customer: r.charge.customer,
    customer_account: null,
    destination_details: {
      card: {
        reference_status: 'pending',
        reference_type: 'acquirer_reference_number',
        type: 'refund',
      },
      type: 'card',
    },
    metadata: { ...r.metadata },
    payment_intent: r.charge.paymentIntent,
    payment_method: r.charge.paymentMethod,
    reason: r.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

/** The charge a refund request names: the charge itself, or the payment intent's latest one. */
function chargeToRefund(store: StripeStore, params: FormObject): ChargeState {
  const chargeId = readString(params, 'charge', '');
  const intentId = readString(params, 'payment_intent', '');
  if (chargeId !== undefined && intentId !== undefined) {
    throw invalid('You may only specify one of these parameters: charge, payment_intent.');
  }
  if (intentId !== undefined) {
    const pi = store.paymentIntents.get(intentId);
    if (!pi) throw noSuch('payment_intent', intentId, 'payment_intent');
    const charge = store.charges.get(pi.latestCharge);
    if (pi.status !== 'succeeded' || charge?.status !== 'succeeded') {
      throw new ApiError(400, {
        type: 'invalid_request_error',
        code: 'charge_not_refundable',
        message: `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
        param: 'payment_intent',
      });
    }
    return charge;
  }
  if (chargeId === undefined) {
    throw invalid(
      'One of the following params should be provided for this request: payment_intent or charge.',
    );
  }
  const charge = store.charges.get(chargeId);
  if (!charge) throw noSuch('charge', chargeId, 'charge');
  return charge;
}

export function createRefund(store: StripeStore, params: FormObject, ctx: RequestContext): Json {
  checkKeys(params, '', REFUND_CREATE_PARAMS, REFUND_CREATE_IMPLEMENTED);
  const charge = chargeToRefund(store, params);
  if (charge.disputed) {
    throw new ApiError(400, {
      type: 'invalid_request_error',
      code: 'charge_disputed',
      message: `Charge ${charge.id} has been charged back; cannot issue a refund.`,
    });
  }
  const left = charge.amount - charge.amountRefunded;
  if (left <= 0) {
    throw new ApiError(400, {
      type: 'invalid_request_error',
      code: 'charge_already_refunded',
      message: `Charge ${charge.id} has already been refunded.`,
    });
  }
  const amount = readInt(params, 'amount', '') ?? left;
  if (amount <= 0 || amount > left) {
    throw new ApiError(400, {
      type: 'invalid_request_error',
      code: 'amount_too_large',
      message: `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
      param: 'amount',
    });
  }
  const refund: RefundState = {
    id: newId('re'),
    created: nowSeconds(),
    amount,
    charge,
    reason: readEnum(params, 'reason', '', REFUND_REASONS) ?? null,
    metadata: createMetadata(readMetadata(params, 'metadata', '')),
  };
  refunds(store).set(refund.id, refund);
  const before = { amount_refunded: charge.amountRefunded, refunded: false };
  charge.amountRefunded += amount;
  queueEvent(store, 'charge.refunded', renderCharge(charge, store.url), before, ctx);
  queueEvent(store, 'refund.created', renderRefund(refund), undefined, ctx);
  return renderRefund(refund);
}

/** `POST /v1/refunds` and `GET /v1/refunds/{id}`; null for other paths. */
export function routeRefunds(
  store: StripeStore,
  method: string,
  path: string,
  params: FormObject,
  ctx: RequestContext,
): Json | null {
  if (path === '/v1/refunds' && method === 'POST') return createRefund(store, params, ctx);
  const one = /^\/v1\/refunds\/([^/]+)$/.exec(path);
  if (!one || method !== 'GET') return null;
  checkKeys(params, '', ['expand'], ['expand']);
  const id = decodeURIComponent(one[1] ?? '');
  const found = refunds(store).get(id);
  if (!found) throw noSuch('refund', id, 'id');
  return renderRefund(found);
}
