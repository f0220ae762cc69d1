/**
 * Developers' keys (issue 36, item 1), on PGlite and PostgreSQL: a key is shown once and stored
 * only as its SHA-256; at most 10 are active, even under parallel creation; a user revokes only
 * their own; an admin lists a customer's keys and revokes them, and the audit trail records it.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { base62 } from '../../server/domains/api/keys-service.ts';
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_LENGTH,
  MAX_API_KEYS,
  type ApiKeyInfo,
  type CreatedApiKey,
} from '../../shared/public-api.ts';
import { bearer, createTestApp, signInAdmin, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const KEY_FORMAT = /^vs_live_[0-9A-Za-z]{43}$/;

describe('base62 of 32 bytes', () => {
  it('is 43 characters for every value, left-padded, and one-to-one', () => {
    expect(base62(Buffer.alloc(32))).toBe('0'.repeat(43));
    expect(base62(Buffer.alloc(32, 0xff))).toHaveLength(43);
    const one = Buffer.alloc(32);
    one[31] = 61;
    expect(base62(one)).toBe(`${'0'.repeat(42)}z`);
    one[31] = 62;
    expect(base62(one)).toBe(`${'0'.repeat(41)}10`);
  });
});

describe.each(databaseKinds)('API keys on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  let n = 0;
  const user = () => signInLocal(t.app, `keys-${kind}-${++n}@example.com`);
  const create = (token: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: bearer(token), payload });
  const list = async (token: string) => {
    const res = await t.app.inject({ url: '/api/account/api-keys', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    return res.json().data as { items: ApiKeyInfo[]; max: number };
  };
  const revoke = (token: string, id: string) =>
    t.app.inject({ method: 'DELETE', url: `/api/account/api-keys/${id}`, headers: bearer(token) });

  it('shows the key once at creation and stores only its SHA-256', async () => {
    const { token } = await user();
    const res = await create(token, { name: '  CI deploys ', scopes: ['videos:read'] });
    expect(res.statusCode).toBe(201);
    const created = res.json().data as CreatedApiKey;
    expect(created.key).toMatch(KEY_FORMAT);
    expect(created).toMatchObject({
      name: 'CI deploys',
      prefix: created.key.slice(0, API_KEY_SHOWN_LENGTH),
      scopes: ['videos:read'],
      last_used_at: null,
      revoked_at: null,
    });
    expect(created.prefix.startsWith(API_KEY_PREFIX)).toBe(true);

    const rows = await queryRows<Record<string, unknown>>(
      t.database.db,
      sql`select * from api_keys where id = ${created.id}`,
    );
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(created.key);
    expect(stored).not.toContain(created.key.slice(API_KEY_SHOWN_LENGTH));
    expect(rows[0]!.key_hash).toBe(createHash('sha256').update(created.key).digest('hex'));

    const listed = await list(token);
    expect(listed.max).toBe(MAX_API_KEYS);
    expect(listed.items).toEqual([{ ...created, key: undefined }].map(({ key: _k, ...k }) => k));
    expect(JSON.stringify(listed)).not.toContain(created.key);

    // Two keys never share their secret.
    const other = (await create(token, { name: 'b', scopes: ['videos:read'] })).json().data;
    expect(other.key).not.toBe(created.key);
  });

  it('refuses a blank or long name, no scope, an unknown or repeated scope', async () => {
    const { token } = await user();
    const refused = [
      { name: '   ', scopes: ['videos:read'] },
      { name: 'x'.repeat(81), scopes: ['videos:read'] },
      { name: 'a', scopes: [] },
      { name: 'a', scopes: ['videos:delete'] },
      { name: 'a', scopes: ['videos:read', 'videos:read'] },
      { name: 'a', scopes: ['videos:read'], extra: 1 },
    ];
    for (const payload of refused) {
      const res = await create(token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code: expect.any(String) });
    }
    expect((await list(token)).items).toEqual([]);
  });

  it('refuses the 11th active key, and accepts one again after a revocation', async () => {
    const { token } = await user();
    for (let i = 0; i < MAX_API_KEYS; i++) {
      expect((await create(token, { name: `k${i}`, scopes: ['credits:read'] })).statusCode).toBe(
        201,
      );
    }
    const eleventh = await create(token, { name: 'one too many', scopes: ['credits:read'] });
    expect(eleventh.statusCode).toBe(409);
    expect(eleventh.json()).toEqual({
      success: false,
      code: 'API_KEY_LIMIT',
      message: expect.stringContaining(`${MAX_API_KEYS} active API keys`),
    });
    expect(eleventh.json().message).toMatch(/Revoke/);

    const { items } = await list(token);
    expect(items.map((k) => k.name)).toEqual(
      [...Array(MAX_API_KEYS).keys()].map((i) => `k${9 - i}`),
    );
    expect((await revoke(token, items[3]!.id)).statusCode).toBe(204);
    expect(
      (await create(token, { name: 'replacement', scopes: ['credits:read'] })).statusCode,
    ).toBe(201);
    const after = await list(token);
    expect(after.items).toHaveLength(MAX_API_KEYS + 1);
    expect(after.items.filter((k) => k.revoked_at !== null).map((k) => k.id)).toEqual([
      items[3]!.id,
    ]);
  });

  it('never lets parallel creations pass the limit', async () => {
    const { token } = await user();
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        create(token, { name: `p${i}`, scopes: ['videos:read'] }),
      ),
    );
    const statuses = answers.map((res) => res.statusCode).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAX_API_KEYS);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    expect((await list(token)).items).toHaveLength(MAX_API_KEYS);
  });

  it("revokes only the user's own keys: another user's or an unknown key is 404", async () => {
    const ann = await user();
    const bob = await user();
    const key = (await create(ann.token, { name: 'ann', scopes: ['videos:read'] })).json().data;
    const refused = await revoke(bob.token, key.id);
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ success: false, code: 'API_KEY_NOT_FOUND' });
    expect((await revoke(bob.token, crypto.randomUUID())).statusCode).toBe(404);
    expect((await list(ann.token)).items[0]!.revoked_at).toBeNull();

    expect((await revoke(ann.token, key.id)).statusCode).toBe(204);
    const first = (await list(ann.token)).items[0]!.revoked_at;
    expect(first).not.toBeNull();
    // Twice is fine, and keeps the first time.
    expect((await revoke(ann.token, key.id)).statusCode).toBe(204);
    expect((await list(ann.token)).items[0]!.revoked_at).toBe(first);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/account/api-keys' })).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      payload: { name: 'a', scopes: ['videos:read'] },
    });
    expect(res.statusCode).toBe(401);
  });

  it("lets an admin list a customer's keys and revoke one, recorded in the audit log", async () => {
    const ann = await user();
    const created = (await create(ann.token, { name: 'ann', scopes: ['videos:write'] })).json()
      .data as CreatedApiKey;
    const admin = await signInAdmin(t.app);

    // A customer is no admin.
    const asCustomer = await t.app.inject({
      url: `/api/admin/users/${ann.user.id}/api-keys`,
      headers: bearer(ann.token),
    });
    expect(asCustomer.statusCode).toBe(403);

    const listed = await t.app.inject({
      url: `/api/admin/users/${ann.user.id}/api-keys`,
      headers: bearer(admin),
    });
    expect(listed.statusCode).toBe(200);
    const { key: _key, ...info } = created;
    expect(listed.json().data).toEqual({ items: [info], max: MAX_API_KEYS });
    expect(listed.body).not.toContain(created.key);

    const unknownUser = await t.app.inject({
      url: `/api/admin/users/${crypto.randomUUID()}/api-keys`,
      headers: bearer(admin),
    });
    expect(unknownUser.statusCode).toBe(404);

    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/api-keys/${created.id}`,
      headers: bearer(admin),
    });
    expect(revoked.statusCode).toBe(204);
    expect((await list(ann.token)).items[0]!.revoked_at).not.toBeNull();
    const missing = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/api-keys/${crypto.randomUUID()}`,
      headers: bearer(admin),
    });
    expect(missing.statusCode).toBe(404);

    const actions = await queryRows<{ action: string; target_user_id: string; target_id: string }>(
      t.database.db,
      sql`select action, target_user_id, target_id from admin_actions
          where action = 'api_key.revoke'`,
    );
    expect(actions).toEqual([
      { action: 'api_key.revoke', target_user_id: ann.user.id, target_id: created.id },
    ]);
  });
});
