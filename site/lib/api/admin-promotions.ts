/**
 * The admin's promotion codes (issue 37, item 1), with the admin's session as every admin call.
 * No change is retried: a retried create could answer "taken" for a code the first try made.
 */
import type { Ok } from '../../../shared/api/common.ts';
import type {
  AdminPromotionCode,
  AdminPromotionRedemption,
  CreatePromotionCodeRequest,
} from '../../../shared/promotions.ts';
import { adminHttp } from './admin.ts';

type Page = { next_cursor: string | null; has_more: boolean };

export async function listPromotionCodes(cursor?: string) {
  return adminHttp
    .get('/api/admin/promotion-codes', { searchParams: cursor ? { cursor } : {} })
    .json<Ok<Page & { codes: AdminPromotionCode[] }>>();
}

export async function createPromotionCode(request: CreatePromotionCodeRequest) {
  return adminHttp
    .post('/api/admin/promotion-codes', { json: request, retry: 0 })
    .json<Ok<AdminPromotionCode>>();
}

export async function setPromotionCodeActive(code: string, active: boolean) {
  return adminHttp
    .patch(`/api/admin/promotion-codes/${encodeURIComponent(code)}`, {
      json: { active },
      retry: 0,
    })
    .json<Ok<AdminPromotionCode>>();
}

export async function listPromotionRedemptions(code: string) {
  return adminHttp
    .get(`/api/admin/promotion-codes/${encodeURIComponent(code)}/redemptions`)
    .json<Ok<Page & { code: AdminPromotionCode; redemptions: AdminPromotionRedemption[] }>>();
}
