/**
 * The catalogue (spec 3 "Subscription plan", "Credit pack"; 9 prices) and the billing texts both
 * sides quote. content/plans.json is the source: the pricing page and the server read it through
 * this module, its copy's numbers filled by shared/plan-copy.ts. Plain values only: the schemas are in server/contracts/billing.ts.
 */
import catalogue from '../content/plans.json' with { type: 'json' };
import { itemCopy } from './plan-copy.ts';

export const BILLING_CYCLES = ['monthly', 'yearly'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];

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
// The copy's counts ("About {{videos}} videos a month") are computed here, once, for both sides.
export const PLANS: readonly Plan[] = catalogue.plans.map((plan) => ({
  ...plan,
  features: plan.features.map((feature) => itemCopy(feature, plan)),
}));
export const PACKS: readonly CreditPack[] = catalogue.packs.map((pack) => ({
  ...pack,
  description: itemCopy(pack.description, pack),
}));

/** The plan with this id, or undefined. */
export const findPlan = (id: string): Plan | undefined => PLANS.find((p) => p.id === id);
/** The credit pack with this id, or undefined. */
export const findPack = (id: string): CreditPack | undefined => PACKS.find((p) => p.id === id);

/** Price of a plan for a billing cycle, in dollars as the catalogue states it. */
export const planPrice = (plan: Plan, cycle: BillingCycle): number =>
  cycle === 'yearly' ? plan.yearlyPrice : plan.monthlyPrice;

/** Dollars → cents without floating-point drift (29.9 → 2990). */
export const toCents = (dollars: number): number => Math.round(dollars * 100);

/** Spec 5 "Purchase" and 8 "Payment": the texts the server answers and the pricing page shows. */
export const BILLING_MESSAGES = {
  signInRequired: 'Please login before purchasing',
  alreadySubscribed:
    'You already have an active subscription. Please cancel it first to switch plans.',
} as const;
