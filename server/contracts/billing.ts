/**
 * Plans, packs, checkout and subscription shapes (spec 3 "Subscription plan", "Credit pack",
 * "Subscription status", "Payment request", "Payment session response"; spec 9 prices).
 * The catalogue is content/plans.json: the pricing page and the server read the same file.
 */
import { Type, type Static } from 'typebox';
import catalogue from '../../content/plans.json' with { type: 'json' };
import { Ok } from './common.ts';

export type BillingCycle = 'monthly' | 'yearly';

export interface Plan {
  id: string;
  name: string;
  monthlyPrice: number;
  yearlyPrice: number;
  credits: number;
  popular: boolean;
  features: string[];
}

export interface CreditPack {
  id: string;
  name: string;
  price: number;
  credits: number;
  description: string;
}

export const CURRENCY = catalogue.currency;
export const PLANS: readonly Plan[] = catalogue.plans;
export const PACKS: readonly CreditPack[] = catalogue.packs;

/** The plan with this id, or undefined. */
export const findPlan = (id: string): Plan | undefined => PLANS.find((p) => p.id === id);
/** The credit pack with this id, or undefined. */
export const findPack = (id: string): CreditPack | undefined => PACKS.find((p) => p.id === id);

/** Price of a plan for a billing cycle, in dollars as the catalogue states it. */
export const planPrice = (plan: Plan, cycle: BillingCycle): number =>
  cycle === 'yearly' ? plan.yearlyPrice : plan.monthlyPrice;

/** Dollars → cents without floating-point drift (29.9 → 2990). */
export const toCents = (dollars: number): number => Math.round(dollars * 100);

/** Spec 7 "POST /api/stripe/create-payment-intent" (it creates a hosted checkout session). */
export const PaymentRequest = Type.Object(
  {
    type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
    plan_id: Type.Optional(Type.String({ maxLength: 40 })),
    package_id: Type.Optional(Type.String({ maxLength: 40 })),
    billing_cycle: Type.Optional(Type.Union([Type.Literal('monthly'), Type.Literal('yearly')])),
    amount: Type.Optional(Type.Number({ minimum: 0, maximum: 1_000_000 })),
    currency: Type.Optional(Type.String({ maxLength: 3 })),
    success_url: Type.String({ minLength: 1, maxLength: 2000 }),
    cancel_url: Type.String({ minLength: 1, maxLength: 2000 }),
  },
  { additionalProperties: false },
);
export type PaymentRequest = Static<typeof PaymentRequest>;

export const PaymentSessionResponse = Type.Object({
  success: Type.Literal(true),
  url: Type.String(),
  sessionId: Type.String(),
});
export type PaymentSessionResponse = Static<typeof PaymentSessionResponse>;

export const SubscriptionInfo = Type.Object({
  planId: Type.String(),
  billingCycle: Type.Union([Type.Literal('monthly'), Type.Literal('yearly')]),
  /** Epoch seconds. */
  currentPeriodEnd: Type.Integer(),
  status: Type.String(),
});
export type SubscriptionInfo = Static<typeof SubscriptionInfo>;

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

export const CancelSubscriptionResponse = Ok(Type.Object({ message: Type.String() }));
export type CancelSubscriptionResponse = Static<typeof CancelSubscriptionResponse>;

/** Where a checkout stands, for the pricing page after the provider sends the buyer back. */
export const CheckoutStatusResponse = Ok(
  Type.Object({
    sessionId: Type.String(),
    status: Type.Union([
      Type.Literal('open'),
      Type.Literal('paid'),
      Type.Literal('canceled'),
      Type.Literal('expired'),
    ]),
    type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
    credits: Type.Integer(),
  }),
);
export type CheckoutStatusResponse = Static<typeof CheckoutStatusResponse>;
