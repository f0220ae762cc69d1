/** Promotion codes (issue 37, item 1): the pricing page's check of a code against one purchase. */
import type { Ok } from '../../../shared/api/common.ts';
import type { PromotionQuote } from '../../../shared/promotions.ts';
import { api } from './http.ts';

/** What the code does to a pack or a plan: the price before and after (4xx: why not). */
export async function quotePromotion(
  code: string,
  item:
    | { type: 'credits'; packageId: string }
    | { type: 'subscription'; planId: string; billingCycle: 'monthly' | 'yearly' },
): Promise<PromotionQuote> {
  const searchParams =
    item.type === 'credits'
      ? { type: 'credits', package_id: item.packageId }
      : { type: 'subscription', plan_id: item.planId, billing_cycle: item.billingCycle };
  const body = await api
    .get(`/api/stripe/promotion-codes/${encodeURIComponent(code)}`, { searchParams, retry: 0 })
    .json<Ok<PromotionQuote>>();
  return body.data;
}
