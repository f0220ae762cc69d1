/**
 * SQL for promotion codes and their redemptions (server/db/money-schema.ts). Every function takes
 * `db | tx` first. A code's `redemptions` counts reserved and redeemed uses; it moves only here:
 * up when a checkout reserves a use (under the code row's lock) or a payment made with a code
 * typed in Stripe's own field is matched back, down when an unpaid checkout ends.
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import {
  cursorTimestampSql,
  keysetBefore,
  keysetPage,
  type CursorKey,
} from '../../../core/cursor.ts';
import { queryRows, type DbOrTx } from '../../../core/db.ts';
import {
  adminActions,
  checkoutSessions,
  promotionCodes,
  promotionRedemptions,
  subscriptions,
  users,
  type PromotionCodeRow,
} from '../../../db/schema.ts';

export async function insertCode(
  db: DbOrTx,
  row: typeof promotionCodes.$inferInsert,
): Promise<PromotionCodeRow | null> {
  const [saved] = await db.insert(promotionCodes).values(row).onConflictDoNothing().returning();
  return saved ?? null;
}

/** The code whose key is `key` (lower case); `forUpdate` locks it until the transaction ends. */
export async function findCodeByKey(
  db: DbOrTx,
  key: string,
  opts: { forUpdate?: boolean } = {},
): Promise<PromotionCodeRow | null> {
  const query = db.select().from(promotionCodes).where(eq(promotionCodes.codeKey, key)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function findCodeById(db: DbOrTx, id: string): Promise<PromotionCodeRow | null> {
  const [row] = await db.select().from(promotionCodes).where(eq(promotionCodes.id, id)).limit(1);
  return row ?? null;
}

export async function findCodeByStripeId(
  db: DbOrTx,
  stripePromotionCodeId: string,
): Promise<PromotionCodeRow | null> {
  const [row] = await db
    .select()
    .from(promotionCodes)
    .where(eq(promotionCodes.stripePromotionCodeId, stripePromotionCodeId))
    .limit(1);
  return row ?? null;
}

export async function setCodeActive(
  db: DbOrTx,
  id: string,
  active: boolean,
): Promise<PromotionCodeRow | null> {
  const [row] = await db
    .update(promotionCodes)
    .set({ active })
    .where(eq(promotionCodes.id, id))
    .returning();
  return row ?? null;
}

/** Newest first by (created_at, id), `limit` rows after `after`. */
async function keyset<T extends { id: string; sortTs: string }>(
  rows: (limit: number, before: SQL | undefined) => Promise<T[]>,
  ts: Parameters<typeof keysetBefore>[0],
  id: Parameters<typeof keysetBefore>[1],
  limit: number,
  after: CursorKey | null,
) {
  const found = await rows(limit + 1, after ? keysetBefore(ts, id, after) : undefined);
  return keysetPage(found, limit, (row) => ({ ts: row.sortTs, id: row.id }));
}

export function listCodes(db: DbOrTx, limit: number, after: CursorKey | null) {
  return keyset(
    (n, before) =>
      db
        .select({
          row: promotionCodes,
          id: promotionCodes.id,
          sortTs: cursorTimestampSql(promotionCodes.createdAt),
        })
        .from(promotionCodes)
        .where(before)
        .orderBy(desc(promotionCodes.createdAt), desc(promotionCodes.id))
        .limit(n),
    promotionCodes.createdAt,
    promotionCodes.id,
    limit,
    after,
  );
}

export function listRedemptions(
  db: DbOrTx,
  codeId: string,
  limit: number,
  after: CursorKey | null,
) {
  return keyset(
    (n, before) =>
      db
        .select({
          row: promotionRedemptions,
          email: users.email,
          id: promotionRedemptions.id,
          sortTs: cursorTimestampSql(promotionRedemptions.createdAt),
        })
        .from(promotionRedemptions)
        .leftJoin(users, eq(users.id, promotionRedemptions.userId))
        .where(and(eq(promotionRedemptions.codeId, codeId), before))
        .orderBy(desc(promotionRedemptions.createdAt), desc(promotionRedemptions.id))
        .limit(n),
    promotionRedemptions.createdAt,
    promotionRedemptions.id,
    limit,
    after,
  );
}

/** Whether the user has paid for a checkout before (first-purchase-only codes). */
export async function hasPaidCheckout(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.userId, userId), eq(checkoutSessions.status, 'paid')))
    .limit(1);
  return row !== undefined;
}

/**
 * Whether the user holds a use of a first-purchase code on a checkout still open (not paid,
 * cancelled or past its expiry at the provider).
 */
export async function holdsOpenFirstPurchaseUse(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await queryRows<{ held: number }>(
    db,
    sql`select 1 as held
          from promotion_redemptions r
          join promotion_codes c on c.id = r.code_id
          join checkout_sessions s on s.id = r.checkout_id
         where r.user_id = ${userId} and r.status = 'reserved' and c.first_purchase_only
           and s.status = 'open' and (s.expires_at is null or s.expires_at > now())
         limit 1`,
  );
  return rows.length > 0;
}

/** Takes one use of a code for a checkout (the caller holds the code row's lock). */
export async function reserve(
  db: DbOrTx,
  use: { codeId: string; userId: string; checkoutId: string; discountCents: number },
): Promise<void> {
  await db.insert(promotionRedemptions).values({ ...use, status: 'reserved' });
  await db
    .update(promotionCodes)
    .set({ redemptions: sql`${promotionCodes.redemptions} + 1` })
    .where(eq(promotionCodes.id, use.codeId));
}

/** One more use, never past the code's maximum. */
const cappedIncrement = sql.raw(
  'case when max_redemptions is null then redemptions + 1 else least(redemptions + 1, max_redemptions) end',
);

/**
 * A paid checkout's use of its code is redeemed. A use released meanwhile (the checkout was
 * closed here, then paid at the provider after all) is counted again: the money was taken with
 * the discount. The count never passes the code's maximum (the table's check).
 */
export async function redeem(db: DbOrTx, checkoutId: string): Promise<void> {
  await db.execute(sql`
    with before as (
      select id, status, code_id from promotion_redemptions
      where checkout_id = ${checkoutId} and status <> 'redeemed' for update
    ), redeemed as (
      update promotion_redemptions r set status = 'redeemed', redeemed_at = now()
      from before where r.id = before.id returning before.status as was, before.code_id
    )
    update promotion_codes set redemptions = ${cappedIncrement}
    where id in (select code_id from redeemed where was = 'released')`);
}

/**
 * Records a use of a code the customer typed in Stripe's own field (nothing was reserved): once
 * per checkout, counted up to the code's maximum (Stripe enforced its own copy of the limit).
 */
export async function recordOutsideRedemption(
  db: DbOrTx,
  use: { codeId: string; userId: string; checkoutId: string; discountCents: number },
): Promise<boolean> {
  const inserted = await db
    .insert(promotionRedemptions)
    .values({ ...use, status: 'redeemed', redeemedAt: sql`now()` })
    .onConflictDoNothing()
    .returning({ id: promotionRedemptions.id });
  if (inserted.length === 0) return false;
  await db.execute(sql`update promotion_codes set redemptions = ${cappedIncrement}
    where id = ${use.codeId}`);
  return true;
}

/**
 * Ends an open checkout unpaid and gives back the use of a code it reserved, in one statement
 * (so no crash can leave the use taken); false when it was paid or closed first.
 */
export async function closeCheckoutReleasing(
  db: DbOrTx,
  checkoutId: string,
  status: 'canceled' | 'expired' | 'failed',
): Promise<boolean> {
  const [row] = await queryRows<{ closed: number }>(
    db,
    sql`
    with closed as (
      update checkout_sessions set status = ${status}
      where id = ${checkoutId} and status = 'open' returning id
    ), released as (
      update promotion_redemptions set status = 'released'
      where checkout_id in (select id from closed) and status = 'reserved' returning code_id
    ), uncounted as (
      update promotion_codes set redemptions = redemptions - 1
      where id in (select code_id from released) returning id
    )
    select (select count(*) from closed)::int as closed, (select count(*) from uncounted)::int as released`,
  );
  return (row?.closed ?? 0) > 0;
}

/** Gives back the use a checkout reserved (a paid duplicate that is refunded). */
export async function releaseUse(db: DbOrTx, checkoutId: string): Promise<void> {
  await db.execute(sql`
    with released as (
      update promotion_redemptions set status = 'released'
      where checkout_id = ${checkoutId} and status <> 'released' returning code_id
    )
    update promotion_codes set redemptions = greatest(redemptions - 1, 0)
    where id in (select code_id from released)`);
}

/** The paid amount and discount the provider reports, and the code it names. */
export async function setCheckoutDiscount(
  db: DbOrTx,
  checkoutId: string,
  changes: { amountCents: number; discountCents: number; promotionCodeId: string | null },
): Promise<void> {
  await db.update(checkoutSessions).set(changes).where(eq(checkoutSessions.id, checkoutId));
}

/** A subscription keeps the language of the checkout that started it (its receipts'). */
export async function setSubscriptionLocale(
  db: DbOrTx,
  subscriptionId: string,
  locale: string,
): Promise<void> {
  await db
    .update(subscriptions)
    .set({ locale })
    .where(and(eq(subscriptions.id, subscriptionId), sql`${subscriptions.locale} <> ${locale}`));
}

/** The audit trail's row for an admin's change to a code. */
export async function insertAdminAction(
  db: DbOrTx,
  action: { admin: string; action: string; targetId: string; details: Record<string, unknown> },
): Promise<void> {
  await db.insert(adminActions).values({
    adminUsername: action.admin,
    action: action.action,
    targetUserId: null,
    targetId: action.targetId,
    details: action.details,
  });
}
