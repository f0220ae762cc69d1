/**
 * Prices a payment request from the catalogue (content/plans.json, through shared/billing.ts):
 * the item, its price and credits are the server's, whatever the client sent.
 */
import { badRequest } from '../../core/errors.ts';
import type { PaymentRequest } from '../../contracts/billing.ts';
import {
  CURRENCY,
  PACKS,
  PLANS,
  findPack,
  findPlan,
  planPrice,
  type BillingCycle,
} from '../../../shared/billing.ts';

const dollars = (n: number) => `${n} ${CURRENCY.toUpperCase()}`;

/** The catalogue item a request names, priced on the server; 400 naming an unknown id. */
export function priceRequest(request: PaymentRequest) {
  if (request.currency && request.currency.toLowerCase() !== CURRENCY) {
    throw badRequest(
      `Payments are in ${CURRENCY.toUpperCase()}; '${request.currency}' is not accepted.`,
      'UNSUPPORTED_CURRENCY',
    );
  }
  if (request.type === 'subscription') {
    if (!request.plan_id)
      throw badRequest("Choose a plan: 'plan_id' is required for a subscription.", 'PLAN_REQUIRED');
    const plan = findPlan(request.plan_id);
    if (!plan) {
      throw badRequest(
        `Unknown plan '${request.plan_id}'. Choose one of: ${PLANS.map((p) => p.id).join(', ')}.`,
        'UNKNOWN_PLAN',
      );
    }
    const cycle: BillingCycle = request.billing_cycle ?? 'monthly';
    const price = planPrice(plan, cycle);
    return {
      kind: 'subscription' as const,
      itemId: plan.id,
      itemName: `${plan.name} plan (${cycle})`,
      billingCycle: cycle,
      price,
      credits: plan.credits,
      describe: `${plan.name} (${dollars(price)}/${cycle === 'yearly' ? 'year' : 'month'})`,
    };
  }
  if (!request.package_id)
    throw badRequest("Choose a credit pack: 'package_id' is required.", 'PACK_REQUIRED');
  const pack = findPack(request.package_id);
  if (!pack) {
    throw badRequest(
      `Unknown credit pack '${request.package_id}'. Choose one of: ${PACKS.map((p) => p.id).join(', ')}.`,
      'UNKNOWN_PACK',
    );
  }
  return {
    kind: 'credits' as const,
    itemId: pack.id,
    itemName: `${pack.name} credit pack`,
    billingCycle: null,
    price: pack.price,
    credits: pack.credits,
    describe: `the ${pack.name} pack (${dollars(pack.price)})`,
  };
}

export type PricedItem = ReturnType<typeof priceRequest>;
