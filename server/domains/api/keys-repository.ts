/**
 * SQL for developers' keys (api_keys). Every function takes `db | tx` first. Rows leave here as
 * the session API's ApiKeyInfo (never a hash); the /v1 lookup returns the key with its owner and
 * the owner's active plan in one indexed query.
 */
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import {
  ACTIVE_SUBSCRIPTION_STATUSES,
  adminActions,
  apiKeys,
  subscriptions,
  users,
  type ApiKeyRow,
  type UserRow,
} from '../../db/schema.ts';
import type { ApiKeyInfo, ApiScope } from '../../../shared/public-api.ts';

/** The most keys a list shows (every active one fits: MAX_API_KEYS is far below it). */
const LIST_LIMIT = 100;

const iso = (value: Date | string): string => new Date(value).toISOString();

type KeyColumns = Omit<ApiKeyRow, 'keyHash'>;

const { keyHash: _hash, ...infoColumns } = getTableColumns(apiKeys);

const toApiKeyInfo = (row: KeyColumns): ApiKeyInfo => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as ApiScope[],
  created_at: iso(row.createdAt),
  last_used_at: row.lastUsedAt ? iso(row.lastUsedAt) : null,
  revoked_at: row.revokedAt ? iso(row.revokedAt) : null,
});

/**
 * Holds the user's row until the transaction ends: key creations of one user take turns, so two
 * parallel ones cannot both count nine active keys. False when the user does not exist.
 */
export async function lockUser(tx: DbOrTx, userId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    tx,
    sql`select id from users where id = ${userId} for update`,
  );
  return rows.length > 0;
}

/** Whether a customer (not an operator's admin row) has this id. */
export async function customerExists(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select id from users where id = ${userId} and provider <> 'admin'`,
  );
  return rows.length > 0;
}

export async function countActive(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from api_keys where user_id = ${userId} and revoked_at is null`,
  );
  return row?.n ?? 0;
}

export async function insertKey(
  db: DbOrTx,
  key: {
    id: string;
    userId: string;
    name: string;
    prefix: string;
    keyHash: string;
    scopes: ApiScope[];
  },
): Promise<ApiKeyInfo> {
  const [row] = await db.insert(apiKeys).values(key).returning(infoColumns);
  return toApiKeyInfo(row!);
}

/** The user's keys, newest first (revoked ones too), at most LIST_LIMIT. */
export async function listKeys(db: DbOrTx, userId: string): Promise<ApiKeyInfo[]> {
  const rows = await db
    .select(infoColumns)
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(LIST_LIMIT);
  return rows.map(toApiKeyInfo);
}

/**
 * Revokes a key (keeping the first revocation's time when it already was), of `userId` when
 * given. Null when no such key (of that user) exists.
 */
export async function revokeKey(
  db: DbOrTx,
  keyId: string,
  userId: string | null,
): Promise<(ApiKeyInfo & { userId: string }) | null> {
  const owner = userId === null ? undefined : eq(apiKeys.userId, userId);
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), owner))
    .returning(infoColumns);
  return row ? { ...toApiKeyInfo(row), userId: row.userId } : null;
}

export interface KeyWithOwner {
  key: KeyColumns;
  user: UserRow;
  /** The owner's active subscription's plan, or null. */
  planId: string | null;
}

/** The key whose SHA-256 is `keyHash`, with its owner and their plan (the /v1 lookup). */
export async function findByHash(db: DbOrTx, keyHash: string): Promise<KeyWithOwner | null> {
  const [row] = await db
    .select({
      key: infoColumns,
      user: users,
      planId: subscriptions.planId,
    })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .leftJoin(
      subscriptions,
      and(
        eq(subscriptions.userId, apiKeys.userId),
        inArray(subscriptions.status, ACTIVE_SUBSCRIPTION_STATUSES),
      ),
    )
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return row ?? null;
}

/** Writes last_used_at unless another request did within the minute (one write a minute a key). */
export async function touchKey(db: DbOrTx, keyId: string): Promise<void> {
  await db.execute(
    sql`update api_keys set last_used_at = now()
        where id = ${keyId}
          and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
  );
}

/**
 * The admin audit trail's row of a revocation (admin_actions, the table the admin domain writes
 * its own actions to), in the revocation's transaction.
 */
export async function insertRevokeAction(
  db: DbOrTx,
  action: { admin: string; key: ApiKeyInfo & { userId: string } },
): Promise<void> {
  await db.insert(adminActions).values({
    adminUsername: action.admin,
    action: 'api_key.revoke',
    targetUserId: action.key.userId,
    targetId: action.key.id,
    details: { name: action.key.name, prefix: action.key.prefix },
  });
}
