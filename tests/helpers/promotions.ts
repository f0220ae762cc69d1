/** Promotion codes for the tests (issue 37, item 1): the admin's calls and the code's rows. */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/core/db.ts';
import { checkoutSessions, promotionCodes, promotionRedemptions } from '../../server/db/schema.ts';
import type { AdminPromotionCode } from '../../shared/promotions.ts';
import { bearer } from './app.ts';

/** POST /api/admin/promotion-codes as the admin `adminToken`. */
export function createCode(app: FastifyInstance, adminToken: string, payload: object) {
  return app.inject({
    method: 'POST',
    url: '/api/admin/promotion-codes',
    headers: bearer(adminToken),
    payload,
  });
}

/** Creates a code and answers it (fails the test when refused). */
export async function madeCode(
  app: FastifyInstance,
  adminToken: string,
  payload: object,
): Promise<AdminPromotionCode> {
  const res = await createCode(app, adminToken, payload);
  if (res.statusCode !== 201) throw new Error(`code not created: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: AdminPromotionCode }).data;
}

/** GET /api/stripe/promotion-codes/{code}?… as `token`. */
export function quote(
  app: FastifyInstance,
  token: string,
  code: string,
  query: string,
  headers: Record<string, string> = {},
) {
  return app.inject({
    url: `/api/stripe/promotion-codes/${encodeURIComponent(code)}?${query}`,
    headers: { ...bearer(token), ...headers },
  });
}

/** The code's row, by its id. */
export async function codeRow(db: Db, id: string) {
  const [row] = await db.select().from(promotionCodes).where(eq(promotionCodes.id, id));
  if (!row) throw new Error(`no promotion code ${id}`);
  return row;
}

/** The uses of a code, oldest first. */
export function usesOf(db: Db, codeId: string) {
  return db
    .select()
    .from(promotionRedemptions)
    .where(eq(promotionRedemptions.codeId, codeId))
    .orderBy(promotionRedemptions.createdAt);
}

/** A checkout's row. */
export async function checkoutRow(db: Db, id: string) {
  const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  if (!row) throw new Error(`no checkout ${id}`);
  return row;
}
