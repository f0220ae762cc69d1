/**
 * Checkout and subscription schemas (spec 3 "Subscription status", "Payment request", "Payment
 * session response"). The types the pricing page uses are in shared/api/billing.ts; the
 * catalogue they sell (plans, packs, prices) is shared/billing.ts.
 */
import { Type, type Static } from 'typebox';
import type * as api from '../../shared/api/billing.ts';
import { BILLING_CYCLES } from '../../shared/billing.ts';
import { LOCALES } from '../../shared/locales.ts';
import { LiteralUnion, Ok, schemaFor } from './common.ts';

/** Spec 7 "POST /api/stripe/create-payment-intent" (it creates a hosted checkout session). */
export const PaymentRequest = schemaFor<api.PaymentRequest>()(
  Type.Object(
    {
      type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
      plan_id: Type.Optional(Type.String({ maxLength: 40 })),
      package_id: Type.Optional(Type.String({ maxLength: 40 })),
      billing_cycle: Type.Optional(LiteralUnion(BILLING_CYCLES)),
      amount: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
      currency: Type.Optional(Type.String({ maxLength: 3 })),
      success_url: Type.String({ minLength: 1, maxLength: 2000 }),
      cancel_url: Type.String({ minLength: 1, maxLength: 2000 }),
      promotion_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      locale: Type.Optional(LiteralUnion(LOCALES)),
    },
    { additionalProperties: false },
  ),
);
export type PaymentRequest = api.PaymentRequest;

export const PaymentSessionResponse = schemaFor<api.PaymentSessionResponse>()(
  Type.Object({ success: Type.Literal(true), url: Type.String(), sessionId: Type.String() }),
);
export type PaymentSessionResponse = api.PaymentSessionResponse;

export const SubscriptionInfo = schemaFor<api.SubscriptionInfo>()(
  Type.Object({
    planId: Type.String(),
    billingCycle: LiteralUnion(BILLING_CYCLES),
    /** Epoch seconds. */
    currentPeriodEnd: Type.Integer(),
    status: Type.String(),
    cancelAtPeriodEnd: Type.Optional(Type.Boolean()),
  }),
);
export type SubscriptionInfo = api.SubscriptionInfo;

export const SubscriptionStatusResponse = Type.Object({
  success: Type.Literal(true),
  hasActiveSubscription: Type.Boolean(),
  subscription: Type.Union([SubscriptionInfo, Type.Null()]),
});
export type SubscriptionStatusResponse = Static<typeof SubscriptionStatusResponse>;

export const CancelSubscriptionBody = Type.Object(
  { immediately: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);

export const CancelSubscriptionResponse = schemaFor<api.CancelSubscriptionResponse>()(
  Ok(Type.Object({ message: Type.String() })),
);
export type CancelSubscriptionResponse = api.CancelSubscriptionResponse;

/** Where a checkout stands, for the pricing page after the provider sends the buyer back. */
export const CheckoutStatusResponse = schemaFor<api.CheckoutStatusResponse>()(
  Ok(
    Type.Object({
      sessionId: Type.String(),
      status: Type.Union([
        Type.Literal('open'),
        Type.Literal('paid'),
        Type.Literal('canceled'),
        Type.Literal('expired'),
        Type.Literal('failed'),
      ]),
      type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
      credits: Type.Integer(),
      /** What was bought and for how much, so the page reports a confirmed payment once. */
      item_id: Type.String({ description: 'The plan or credit pack id' }),
      billing_cycle: Type.Union([Type.Literal('monthly'), Type.Literal('yearly'), Type.Null()], {
        description: "A plan's billing cycle; null for a credit pack",
      }),
      amount: Type.Number({ description: 'The price charged, in currency units (29.9 is $29.90)' }),
      currency: Type.String({ description: 'ISO currency code, lower case (usd)' }),
    }),
  ),
);
export type CheckoutStatusResponse = api.CheckoutStatusResponse;
