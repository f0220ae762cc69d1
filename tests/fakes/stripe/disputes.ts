/**
 * Disputes (chargebacks) for the Stripe fake: the cardholder's bank disputes a charge
 * (`charge.dispute.created`), and the dispute closes won, lost or, for an inquiry, warning_closed
 * (`charge.dispute.closed`).
 */
import type { Json } from './form.ts';
import { newId, nowSeconds } from './ids.ts';
import type { DisputeState, StripeStore } from './state.ts';

const CLOSED: ReadonlyArray<DisputeState['status']> = ['won', 'lost', 'warning_closed'];

export function renderDispute(dp: DisputeState): Json {
  const closed = CLOSED.includes(dp.status);
  return {
    id: dp.id,
    object: 'dispute',
    amount: dp.amount,
    balance_transactions: [],
    charge: dp.charge,
    created: dp.created,
    currency: dp.currency,
    enhanced_eligibility_types: [],
    evidence: {
      access_activity_log: null,
      billing_address: null,
      cancellation_policy: null,
      cancellation_policy_disclosure: null,
      cancellation_rebuttal: null,
      customer_communication: null,
      customer_email_address: null,
      customer_name: null,
      customer_purchase_ip: null,
      customer_signature: null,
      duplicate_charge_documentation: null,
      duplicate_charge_explanation: null,
      duplicate_charge_id: null,
      enhanced_evidence: {},
      product_description: null,
      receipt: null,
      refund_policy: null,
      refund_policy_disclosure: null,
      refund_refusal_explanation: null,
      service_date: null,
      service_documentation: null,
      shipping_address: null,
      shipping_carrier: null,
      shipping_date: null,
      shipping_documentation: null,
      shipping_tracking_number: null,
      uncategorized_file: null,
      uncategorized_text: null,
    },
    evidence_details: {
      due_by: closed ? null : dp.created + 21 * 86_400,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: dp.paymentIntent,
    payment_method_details: {
      card: {
        brand: 'visa',
        case_type: 'chargeback',
        network: 'visa',
        network_reason_code: '10.4',
      },
      type: 'card',
    },
    reason: dp.reason,
    status: dp.status,
  };
}

/** The bank disputes a charge (fully by default): the charge is marked disputed. */
export function openDispute(
  store: StripeStore,
  chargeId: string,
  opts: { amountCents?: number; reason?: string; inquiry?: boolean } = {},
): DisputeState {
  const charge = store.charges.get(chargeId);
  if (!charge || charge.status !== 'succeeded') {
    throw new Error(`stripe fake: no succeeded charge ${chargeId} to dispute`);
  }
  const amount = opts.amountCents ?? charge.amount - charge.amountRefunded;
  if (!Number.isInteger(amount) || amount <= 0 || amount > charge.amount) {
    throw new Error(`stripe fake: cannot dispute ${amount} of ${charge.amount} on ${chargeId}`);
  }
  const dispute: DisputeState = {
    id: newId('dp'),
    created: nowSeconds(),
    charge: charge.id,
    paymentIntent: charge.paymentIntent,
    amount,
    currency: charge.currency,
    reason: opts.reason ?? 'fraudulent',
    // An inquiry (a "warning") closes as warning_closed instead of won or lost.
    status: opts.inquiry ? 'warning_needs_response' : 'needs_response',
  };
  charge.disputed = true;
  store.disputes.set(dispute.id, dispute);
  return dispute;
}

/** The dispute is decided. */
export function decideDispute(
  store: StripeStore,
  disputeId: string,
  outcome: 'won' | 'lost' | 'warning_closed',
): DisputeState {
  const dispute = store.disputes.get(disputeId);
  if (!dispute) throw new Error(`stripe fake: unknown dispute ${disputeId}`);
  if (CLOSED.includes(dispute.status)) {
    throw new Error(`stripe fake: dispute ${disputeId} is already ${dispute.status}`);
  }
  dispute.status = outcome;
  return dispute;
}
