/**
 * Which of our plans a Stripe price is (issue 37, item 2). A plan switched in the customer portal
 * arrives as a subscription (or invoice) whose item has another price, one the operator made in
 * the dashboard for the portal to offer. It is read, in this order, from the price's metadata
 * `planId` (the cycle from its interval), from a lookup key `<planId>_<monthly|yearly>`, or from
 * its amount and interval when they are a catalogue price (our own checkouts' inline prices).
 * A price none of these names is no plan of ours: the subscription keeps the plan it had.
 */
import {
  BILLING_CYCLES,
  CURRENCY,
  findPlan,
  planPrice,
  PLANS,
  toCents,
  type BillingCycle,
} from '../../../../shared/billing.ts';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});

export interface PricePlan {
  planId: string;
  billingCycle: BillingCycle;
}

const cycleOfInterval = (interval: unknown): BillingCycle | null =>
  interval === 'year' ? 'yearly' : interval === 'month' ? 'monthly' : null;

/** The catalogue plan priced at `cents` per `cycle` in `currency`, or null. */
function planByAmount(cents: number, cycle: BillingCycle, currency: unknown): PricePlan | null {
  if (typeof currency === 'string' && currency.toLowerCase() !== CURRENCY) return null;
  const plan = PLANS.find((p) => toCents(planPrice(p, cycle)) === cents);
  return plan ? { planId: plan.id, billingCycle: cycle } : null;
}

/** The plan a Stripe price object names, or null. */
function planOfPrice(value: unknown): PricePlan | null {
  const price = obj(value);
  const recurring = obj(price.recurring);
  if (recurring.interval_count !== undefined && recurring.interval_count !== 1) return null;
  const cycle = cycleOfInterval(recurring.interval);
  if (!cycle) return null;
  const tagged = obj(price.metadata).planId;
  if (typeof tagged === 'string' && findPlan(tagged))
    return { planId: tagged, billingCycle: cycle };
  const key =
    typeof price.lookup_key === 'string' ? /^(.+)_(monthly|yearly)$/.exec(price.lookup_key) : null;
  if (key && findPlan(key[1]!) && BILLING_CYCLES.includes(key[2] as BillingCycle)) {
    return key[2] === cycle ? { planId: key[1]!, billingCycle: cycle } : null;
  }
  return typeof price.unit_amount === 'number'
    ? planByAmount(price.unit_amount, cycle, price.currency)
    : null;
}

/** The plan of a subscription's (first) item, or null. */
export function planOfSubscription(subscription: unknown): PricePlan | null {
  const item = obj((obj(obj(subscription).items).data as unknown[] | undefined)?.[0]);
  return planOfPrice(item.price);
}

/** Whether an invoice line is a proration (current API: on its parent; older: on the line). */
function isProration(line: Json): boolean {
  const details = obj(obj(line.parent).subscription_item_details);
  return details.proration === true || line.proration === true;
}

/**
 * What an invoice raised by a subscription change pays for: `startsPeriod` when one of its lines
 * bills a whole period in advance (not a proration: a new interval restarts the cycle and is
 * charged at once), that line's period, and the plan it is priced at when it can be read (the
 * line's price, or its amount with the period's length: a line names its price by id only).
 */
export function readPeriodLine(invoice: unknown): {
  startsPeriod: boolean;
  period: { start: unknown; end: unknown } | null;
  plan: PricePlan | null;
} {
  const lines = ((obj(obj(invoice).lines).data as unknown[] | undefined) ?? []).map(obj);
  const full = lines.find((line) => !isProration(line));
  if (!full) return { startsPeriod: false, period: null, plan: null };
  const period = obj(full.period);
  const legacyPlan = full.price ? planOfPrice(full.price) : null;
  const days = (Number(period.end) - Number(period.start)) / 86_400;
  const unit = Number(obj(full.pricing).unit_amount_decimal ?? Number.NaN);
  const plan =
    legacyPlan ??
    (Number.isFinite(days) && Number.isInteger(unit) && unit > 0
      ? planByAmount(unit, days > 180 ? 'yearly' : 'monthly', full.currency)
      : null);
  return { startsPeriod: true, period: { start: period.start, end: period.end }, plan };
}
