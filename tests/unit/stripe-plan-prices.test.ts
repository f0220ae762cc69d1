/**
 * Which of our plans a Stripe price is (server/domains/billing/providers/stripe-prices.ts): a
 * plan switched in the customer portal is read from the price's metadata, its lookup key, or its
 * amount and interval; anything else is no plan of ours, and the subscription keeps its plan.
 */
import { describe, expect, it } from 'vitest';
import {
  planOfSubscription,
  readPeriodLine,
} from '../../server/domains/billing/providers/stripe-prices.ts';

const subscriptionWith = (price: object) => ({ items: { data: [{ price }] } });
const month = { interval: 'month', interval_count: 1 };
const year = { interval: 'year', interval_count: 1 };

describe('planOfSubscription', () => {
  it.each([
    [
      'metadata planId',
      { recurring: year, unit_amount: 1, metadata: { planId: 'pro' } },
      'pro',
      'yearly',
    ],
    [
      'a lookup key',
      { recurring: month, unit_amount: 1, lookup_key: 'pro+_monthly' },
      'pro+',
      'monthly',
    ],
    [
      'a catalogue amount',
      { recurring: month, unit_amount: 2990, currency: 'usd' },
      'lite',
      'monthly',
    ],
    ['a yearly catalogue amount', { recurring: year, unit_amount: 47_900 }, 'pro', 'yearly'],
  ])('reads %s', (_name, price, planId, billingCycle) => {
    expect(planOfSubscription(subscriptionWith(price))).toEqual({ planId, billingCycle });
  });

  it.each([
    [
      'an unknown planId and amount',
      { recurring: month, unit_amount: 1234, metadata: { planId: 'gold' } },
    ],
    ['another amount', { recurring: month, unit_amount: 2991 }],
    ['the yearly amount billed monthly', { recurring: month, unit_amount: 47_900 }],
    ['another currency', { recurring: month, unit_amount: 2990, currency: 'eur' }],
    [
      'every two months',
      { recurring: { interval: 'month', interval_count: 2 }, unit_amount: 2990 },
    ],
    ['a weekly price', { recurring: { interval: 'week', interval_count: 1 }, unit_amount: 2990 }],
    ['a one-time price', { recurring: null, unit_amount: 2990 }],
    [
      'a lookup key of the other cycle',
      { recurring: month, unit_amount: 1, lookup_key: 'pro_yearly' },
    ],
    ['no item', null],
  ])('is no plan for %s', (_name, price) => {
    expect(planOfSubscription(price ? subscriptionWith(price) : {})).toBeNull();
  });
});

describe('readPeriodLine', () => {
  const line = (proration: boolean, amount: number, days: number) => ({
    parent: { subscription_item_details: { proration } },
    period: { start: 1_800_000_000, end: 1_800_000_000 + days * 86_400 },
    pricing: { unit_amount_decimal: String(amount) },
  });

  it('finds a whole new period and its plan beside a proration credit', () => {
    const invoice = { lines: { data: [line(true, -1500, 20), line(false, 95_900, 365)] } };
    expect(readPeriodLine(invoice)).toEqual({
      startsPeriod: true,
      period: { start: 1_800_000_000, end: 1_800_000_000 + 365 * 86_400 },
      plan: { planId: 'pro+', billingCycle: 'yearly' },
    });
  });

  it('grants nothing for an invoice of prorations only', () => {
    const invoice = { lines: { data: [line(true, -1500, 20), line(true, 3000, 20)] } };
    expect(readPeriodLine(invoice)).toEqual({ startsPeriod: false, period: null, plan: null });
  });

  it('reads an older line that names its price and flags its proration itself', () => {
    const invoice = {
      lines: {
        data: [{ proration: false, price: { recurring: month, unit_amount: 5990 }, period: {} }],
      },
    };
    expect(readPeriodLine(invoice).plan).toEqual({ planId: 'pro', billingCycle: 'monthly' });
  });
});
