/**
 * Invoices for the Stripe fake: the wire JSON (API 2026-10-28: the subscription sits under
 * `parent.subscription_details`, and the payment that paid it is an InvoicePayment, not a field
 * of the invoice) and the invoice a subscription's start or renewal issues.
 */
import type { Json } from './form.ts';
import { newId } from './ids.ts';
import type { InvoiceState, StripeStore, SubscriptionState } from './state.ts';

export function formatMoney(cents: number, currency: string): string {
  const symbol = currency === 'usd' ? '$' : currency === 'eur' ? '€' : `${currency.toUpperCase()} `;
  return `${symbol}${(cents / 100).toFixed(2)}`;
}

/** The invoice as Stripe sends it; `url` is the fake's base URL (hosted invoice and PDF). */
export function renderInvoice(inv: InvoiceState, url: string): Json {
  const paid = inv.status === 'paid';
  return {
    id: inv.id,
    object: 'invoice',
    account_country: 'US',
    account_name: 'Fake Stripe Account',
    account_tax_ids: null,
    amount_due: inv.total,
    amount_overpaid: 0,
    amount_paid: paid ? inv.total : 0,
    amount_remaining: paid ? 0 : inv.total,
    amount_shipping: 0,
    application: null,
    attempt_count: inv.attemptCount,
    attempted: inv.attemptCount > 0,
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
        quantity_decimal: String(line.item.quantity),
        subscription: inv.subscription,
        subtotal: line.amount,
        taxes: [],
      })),
      has_more: false,
      url: `/v1/invoices/${inv.id}/lines`,
    },
    livemode: false,
    metadata: {},
    // Stripe retries a failed renewal (Smart Retries); a paid invoice has no next attempt.
    next_payment_attempt: paid ? null : inv.created + 3 * 86_400,
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
    status: inv.status,
    status_transitions: {
      finalized_at: inv.created,
      marked_uncollectible_at: null,
      paid_at: inv.paidAt,
      voided_at: null,
    },
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

/**
 * An open (finalized, unpaid) invoice for the subscription's items, numbered from its customer's
 * prefix; invoice-payments.ts pays it.
 */
export function issueInvoice(
  store: StripeStore,
  sub: SubscriptionState,
  billingReason: InvoiceState['billingReason'],
  invoicePeriod: { start: number; end: number },
  linePeriod: { start: number; end: number },
  created: number,
): InvoiceState {
  const customer = store.customers.get(sub.customer);
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
    status: 'open',
    attemptCount: 0,
    paidAt: null,
    currency: sub.currency,
    periodStart: invoicePeriod.start,
    periodEnd: invoicePeriod.end,
    lines,
    total: lines.reduce((sum, l) => sum + l.amount, 0),
  };
  store.invoices.set(inv.id, inv);
  sub.latestInvoice = inv.id;
  return inv;
}
