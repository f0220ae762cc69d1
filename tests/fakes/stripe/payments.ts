/**
 * Payment intents and charges for the Stripe fake: what a paid checkout or invoice leaves. A
 * payment succeeds at once, settles later (a delayed method such as a bank debit) or fails.
 */
import type { Json } from './form.ts';
import { newId, nowSeconds, randomToken } from './ids.ts';
import type { ChargeState, PaymentIntentState, StripeStore } from './state.ts';

/** Who pays, as the charge's billing details show it. */
export interface Payer {
  customer: string | null;
  email: string;
  name: string;
  paymentMethod: string;
}

/** A payment intent and its first charge: succeeded, processing (delayed method) or failed. */
export function createPayment(
  store: StripeStore,
  payer: Payer,
  what: {
    amount: number;
    currency: string;
    description: string | null;
    metadata: Record<string, string>;
    receiptEmail: string | null;
  },
  outcome: 'succeeded' | 'processing' | 'failed' = 'succeeded',
): PaymentIntentState {
  const pi: PaymentIntentState = {
    id: newId('pi'),
    created: nowSeconds(),
    amount: what.amount,
    currency: what.currency,
    customer: payer.customer,
    description: what.description,
    metadata: { ...what.metadata },
    receiptEmail: what.receiptEmail,
    latestCharge: '',
    paymentMethod: payer.paymentMethod,
    status: 'requires_payment_method',
  };
  store.paymentIntents.set(pi.id, pi);
  chargePayment(store, pi, payer, outcome);
  return pi;
}

/** A new charge attempt on a payment intent (the first one, or a retry of a failed one). */
export function chargePayment(
  store: StripeStore,
  pi: PaymentIntentState,
  payer: Payer,
  outcome: 'succeeded' | 'processing' | 'failed',
): ChargeState {
  const charge: ChargeState = {
    id: newId('ch'),
    created: nowSeconds(),
    amount: pi.amount,
    amountRefunded: 0,
    currency: pi.currency,
    customer: pi.customer,
    description: pi.description,
    metadata: { ...pi.metadata },
    paymentIntent: pi.id,
    paymentMethod: payer.paymentMethod,
    billingEmail: payer.email,
    billingName: payer.name,
    receiptEmail: pi.receiptEmail,
    status: outcome === 'processing' ? 'pending' : outcome,
    disputed: false,
  };
  store.charges.set(charge.id, charge);
  pi.latestCharge = charge.id;
  pi.status = outcome === 'failed' ? 'requires_payment_method' : outcome;
  return charge;
}

/** A delayed payment settles: its pending charge succeeds or fails. */
export function settlePayment(store: StripeStore, pi: PaymentIntentState, succeeded: boolean) {
  const charge = store.charges.get(pi.latestCharge);
  if (!charge || charge.status !== 'pending') {
    throw new Error(`stripe fake: payment ${pi.id} has no pending charge to settle`);
  }
  charge.status = succeeded ? 'succeeded' : 'failed';
  pi.status = succeeded ? 'succeeded' : 'requires_payment_method';
}

export function renderPaymentIntent(pi: PaymentIntentState): Json {
  return {
    id: pi.id,
    object: 'payment_intent',
    amount: pi.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    allowed_payment_method_types: null,
    amount_received: pi.status === 'succeeded' ? pi.amount : 0,
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
    excluded_payment_method_types: null,
    last_payment_error:
      pi.status === 'requires_payment_method'
        ? {
            code: 'card_declined',
            decline_code: 'insufficient_funds',
            message: 'Your card has insufficient funds.',
            type: 'card_error',
          }
        : null,
    latest_charge: pi.latestCharge,
    livemode: false,
    managed_payments: null,
    metadata: { ...pi.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: pi.paymentMethod,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: pi.receiptEmail,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: pi.status,
    transfer_data: null,
    transfer_group: null,
  };
}

/** The charge as Stripe sends it; `url` is the fake's base URL (the receipt's origin). */
export function renderCharge(ch: ChargeState, url: string): Json {
  const succeeded = ch.status === 'succeeded';
  const failed = ch.status === 'failed';
  return {
    id: ch.id,
    object: 'charge',
    amount: ch.amount,
    amount_captured: succeeded ? ch.amount : 0,
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
    captured: succeeded,
    created: ch.created,
    currency: ch.currency,
    customer: ch.customer,
    description: ch.description,
    disputed: ch.disputed,
    failure_balance_transaction: null,
    failure_code: failed ? 'card_declined' : null,
    failure_message: failed ? 'Your card has insufficient funds.' : null,
    fraud_details: {},
    livemode: false,
    metadata: { ...ch.metadata },
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failed ? 'declined_by_network' : 'approved_by_network',
      reason: failed ? 'insufficient_funds' : null,
      risk_level: 'normal',
      seller_message: failed
        ? 'The bank returned the decline code `insufficient_funds`.'
        : 'Payment complete.',
      type: failed ? 'issuer_declined' : 'authorized',
    },
    paid: succeeded,
    payment_intent: ch.paymentIntent,
    payment_method: ch.paymentMethod,
    payment_method_details: {
      card: {
        amount_authorized: succeeded ? ch.amount : null,
        authorization_code: null,
        brand: 'visa',
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        electronic_commerce_indicator: null,
        exp_month: 12,
        exp_year: 2034,
        funding: 'credit',
        installments: null,
        last4: '4242',
        mandate: null,
        network: 'visa',
        network_transaction_id: null,
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
      type: 'card',
    },
    receipt_email: ch.receiptEmail,
    receipt_number: null,
    receipt_url: `${url}/receipts/${ch.id}`,
    refunded: ch.amountRefunded === ch.amount,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: ch.status,
    transfer_data: null,
    transfer_group: null,
  };
}
