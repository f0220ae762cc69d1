/**
 * Developers' keys (issue 36, item 1): created with a name and scopes, shown whole once
 * (`vs_live_` + 32 random bytes in base62), stored only as their SHA-256, at most MAX_API_KEYS
 * active per user, revoked by their owner or an admin. `authenticate` is the lookup behind every
 * /v1 request: the key, its owner and the owner's plan's limits in one query.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RequestApiKey } from '../../core/access.ts';
import type { Db } from '../../core/db.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import type { UserRow } from '../../db/schema.ts';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  API_SCOPES,
  MAX_API_KEY_NAME,
  MAX_API_KEYS,
  type ApiKeyInfo,
  type ApiScope,
  type CreatedApiKey,
} from '../../../shared/public-api.ts';
import * as repo from './keys-repository.ts';
import type { UserCache } from '../../core/user-cache.ts';
import { planLimits, type KeyLimits } from './v1-limits.ts';
import { isUuid } from '../../core/uuid.ts';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Base62 digits of any 32-byte number: 62^43 > 2^256. */
const SECRET_DIGITS = 43;

/** 32 bytes as a big-endian number in base62, left-padded to SECRET_DIGITS characters. */
export function base62(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex') || '0'}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)]! + out;
    value /= 62n;
  }
  return out.padStart(SECRET_DIGITS, '0');
}

/** How often a process writes a key's last use, and how long it keeps a key it read. */
const TOUCH_EVERY_MS = 60_000;
const CACHE_FOR_MS = 10 * 60_000;

/** The stored form of a key (a fast hash is enough: keys carry 256 bits of entropy). */
const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

/** A /v1 caller: the key (with its owner's limits) and the owner's row. */
interface AuthenticatedKey {
  key: RequestApiKey;
  user: UserRow;
}

export type Authentication = AuthenticatedKey | { error: 'invalid' | 'revoked' };

const keyNotFound = () => notFound(msg('api_keys.not_found'), 'API_KEY_NOT_FOUND');

function checkName(name: unknown): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (trimmed.length < 1 || trimmed.length > MAX_API_KEY_NAME) {
    throw badRequest(msg('api_keys.name_invalid', { max: MAX_API_KEY_NAME }), 'INVALID_NAME');
  }
  return trimmed;
}

function checkScopes(scopes: unknown): ApiScope[] {
  const list = Array.isArray(scopes) ? (scopes as unknown[]) : [];
  const known = list.every((s) => (API_SCOPES as readonly unknown[]).includes(s));
  if (list.length === 0 || !known || new Set(list).size !== list.length) {
    throw badRequest(
      msg('api_keys.scopes_invalid', { scopes: API_SCOPES.join(', ') }),
      'INVALID_SCOPES',
    );
  }
  return list as ApiScope[];
}

export function createApiKeyService(deps: {
  db: Db;
  log: FastifyBaseLogger;
  /** config.apiLimits: a key's limits when its owner's plan names none. */
  limits: KeyLimits;
  /**
   * Keys already read, by hash (core/user-cache.ts): dropped on every process when the key's
   * row, its owner's row or ledger changes (the api_keys trigger of migration 0018), so a
   * revocation holds everywhere at once. Without it every request reads the key.
   */
  cache?: UserCache<Authentication>;
}) {
  const { db, log } = deps;
  /** When this process last wrote each key's last_used_at (one write a minute a key at most). */
  const touched = new Map<string, number>();

  /**
   * Writes last_used_at off the request's path: the answer does not wait for it, and a failed
   * write costs only a stale "last used" (logged).
   */
  const touch = (keyId: string) => {
    const now = Date.now();
    if (now - (touched.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
    // Bounded: a key not seen for a minute may be written again anyway.
    if (touched.size > 10_000) touched.clear();
    touched.set(keyId, now);
    repo.touchKey(db, keyId).catch((err: unknown) => {
      log.warn({ err, keyId }, 'writing an API key’s last use failed');
    });
  };

  /** The key of `keyHash` as its row says (null: no such key). */
  const load = async (keyHash: string) => {
    const found = await repo.findByHash(db, keyHash);
    if (!found) return null;
    const userId = found.key.userId;
    const expiresAt = new Date(Date.now() + CACHE_FOR_MS);
    if (found.key.revokedAt) {
      return { value: { error: 'revoked' } as Authentication, userId, expiresAt };
    }
    const { limits, keyClass } = planLimits(found.planId, deps.limits);
    const value: Authentication = {
      key: { id: found.key.id, userId, scopes: found.key.scopes as ApiScope[], limits, keyClass },
      user: found.user,
    };
    return { value, userId, expiresAt };
  };

  return {
    /** A new key for `userId`; the answer carries the full key, which is never shown again. */
    async create(
      userId: string,
      input: { name: string; scopes: string[] },
    ): Promise<CreatedApiKey> {
      const name = checkName(input.name);
      const scopes = checkScopes(input.scopes);
      const key = API_KEY_PREFIX + base62(randomBytes(32));
      const info = await db.transaction(async (tx) => {
        if (!(await repo.lockUser(tx, userId))) throw keyNotFound();
        if ((await repo.countActive(tx, userId)) >= MAX_API_KEYS) {
          throw new AppError(409, 'API_KEY_LIMIT', msg('api_keys.limit', { max: MAX_API_KEYS }));
        }
        return repo.insertKey(tx, {
          id: randomUUID(),
          userId,
          name,
          prefix: key.slice(0, API_KEY_SHOWN_LENGTH),
          keyHash: hashApiKey(key),
          scopes,
        });
      });
      return { ...info, key };
    },

    /**
     * A known key from this process's cache, without a promise (most /v1 requests): undefined
     * when it must be read (`authenticate`).
     */
    cached(fullKey: string): AuthenticatedKey | undefined {
      const found = deps.cache?.peek(hashApiKey(fullKey));
      if (!found || 'error' in found) return undefined;
      touch(found.key.id);
      return found;
    },

    /** The key behind a /v1 request's bearer token, or why it is refused. */
    async authenticate(fullKey: string): Promise<Authentication> {
      const keyHash = hashApiKey(fullKey);
      const found = deps.cache
        ? await deps.cache.session(keyHash, () => load(keyHash))
        : ((await load(keyHash))?.value ?? null);
      if (!found) return { error: 'invalid' };
      if (!('error' in found)) touch(found.key.id);
      return found;
    },

    /** The user's keys, newest first, revoked ones included (the 100 newest). */
    list(userId: string): Promise<ApiKeyInfo[]> {
      return repo.listKeys(db, userId);
    },

    /** Revokes one of the user's keys (again: no change); another user's or no key: 404. */
    async revoke(userId: string, keyId: string): Promise<ApiKeyInfo> {
      if (!isUuid(keyId)) throw keyNotFound();
      const key = await repo.revokeKey(db, keyId, userId);
      if (!key) throw keyNotFound();
      const { userId: _owner, ...info } = key;
      return info;
    },

    /** An admin's view of a customer's keys (prefix, scopes, last use); no such customer: 404. */
    async listForUser(userId: string): Promise<ApiKeyInfo[]> {
      if (!isUuid(userId) || !(await repo.customerExists(db, userId))) {
        throw notFound(msg('admin.customer_not_found'), 'USER_NOT_FOUND');
      }
      return repo.listKeys(db, userId);
    },

    /** An admin revokes any key; the audit trail records it in the same transaction. */
    async revokeByAdmin(keyId: string, admin: string): Promise<ApiKeyInfo> {
      if (!isUuid(keyId)) throw keyNotFound();
      return db.transaction(async (tx) => {
        const key = await repo.revokeKey(tx, keyId, null);
        if (!key) throw keyNotFound();
        await repo.insertRevokeAction(tx, { admin, key });
        const { userId: _owner, ...info } = key;
        return info;
      });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
