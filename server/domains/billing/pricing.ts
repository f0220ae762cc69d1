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
import { msg } from '../../core/api-messages.ts';

const dollars = (n: number) => `${n} ${CURRENCY.toUpperCase()}`;

/** The catalogue item a request names, priced on the server; 400 naming an unknown id. */
export function priceRequest(request: PaymentRequest) {
  if (request.currency && request.currency.toLowerCase() !== CURRENCY) {
    throw badRequest(
      msg('billing.unsupported_currency', {
        currency: CURRENCY.toUpperCase(),
        given: request.currency,
      }),
      'UNSUPPORTED_CURRENCY',
    );
  }
  if (request.type === 'subscription') {
    if (!request.plan_id) throw badRequest(msg('billing.plan_required'), 'PLAN_REQUIRED');
    const plan = findPlan(request.plan_id);
    if (!plan) {
      throw badRequest(
        msg('billing.unknown_plan', {
          plan: request.plan_id,
          plans: PLANS.map((p) => p.id).join(', '),
        }),
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
      describe: msg('billing.describe_plan', { name: plan.name, price: dollars(price), cycle }),
    };
  }
  if (!request.package_id) throw badRequest(msg('billing.pack_required'), 'PACK_REQUIRED');
  const pack = findPack(request.package_id);
  if (!pack) {
    throw badRequest(
      msg('billing.unknown_pack', {
        pack: request.package_id,
        packs: PACKS.map((p) => p.id).join(', '),
      }),
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
    describe: msg('billing.describe_pack', { name: pack.name, price: dollars(pack.price) }),
  };
}
