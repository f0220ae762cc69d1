/**
 * Issue 36: closing an account (DELETE /api/account) must end its access through the public API
 * too. Before, the account's sessions were revoked but its API keys kept working on /v1 (a
 * closed account's key could still read, make and delete videos), and its webhook endpoints
 * kept receiving its events. Now closing revokes every key and deletes every endpoint (with the
 * request secret and their deliveries) in the same transaction as the rest of the closure. The
 * account's data export names its keys (prefix, never the key) and endpoints (never a secret).
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

describe.each(databaseKinds)('closing an account with API keys on %s', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    // An allowed host for the endpoint's URL; nothing listens there (no delivery is sent).
    t = await createTestApp(kind, { env: { OUTBOUND_ALLOW_HOSTS: '127.0.0.1:9' } });
  });
  afterAll(() => t.close());

  it('revokes its keys and deletes its webhook endpoints', async () => {
    const { token, user } = await signInLocal(t.app, 'closing-api@example.com', 'Cleo');
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/account/api-keys',
      headers: bearer(token),
      payload: { name: 'ci', scopes: ['credits:read', 'videos:read'] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const key = (created.json() as { data: { key: string } }).data.key;
    const hook = await t.app.inject({
      method: 'POST',
      url: '/api/account/webhooks',
      headers: bearer(token),
      payload: { url: 'http://127.0.0.1:9/hook', events: ['video.completed'] },
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const secret = await t.app.inject({
      method: 'POST',
      url: '/api/account/webhooks/request-secret',
      headers: bearer(token),
    });
    expect(secret.statusCode, secret.body).toBe(200);
    // The key works before the account closes.
    const before = await t.app.inject({ url: '/v1/credits', headers: bearer(key) });
    expect(before.statusCode, before.body).toBe(200);
    // The customer's copy of their data names the key and the endpoints, never a secret.
    const exported = await t.app.inject({ url: '/api/account/export', headers: bearer(token) });
    expect(exported.statusCode, exported.body).toBe(200);
    const api = (
      exported.json() as { data: { api: Record<string, Array<Record<string, unknown>>> } }
    ).data.api;
    expect(api.keys!.map((k) => [k.name, k.prefix, k.revoked_at])).toEqual([
      ['ci', key.slice(0, 14), null],
    ]);
    expect(api.webhook_endpoints!.map((e) => e.url).sort()).toEqual([
      'http://127.0.0.1:9/hook',
      null,
    ]);
    expect(exported.body).not.toContain(key);
    expect(exported.body).not.toContain('whsec_');

    // A local account signed in just now may close without a password.
    const closed = await t.app.inject({
      method: 'DELETE',
      url: '/api/account',
      headers: bearer(token),
      payload: { confirm: true },
    });
    expect(closed.statusCode, closed.body).toBe(200);

    const after = await t.app.inject({ url: '/v1/credits', headers: bearer(key) });
    expect(after.statusCode, after.body).toBe(401);
    expect(after.json().error.code).toBe('API_KEY_REVOKED');
    const [left] = await queryRows<{ keys: number; endpoints: number }>(
      t.database.db,
      sql`select (select count(*)::int from api_keys
                  where user_id = ${user.id} and revoked_at is null) as keys,
                 (select count(*)::int from webhook_endpoints where user_id = ${user.id}) as endpoints`,
    );
    expect(left).toEqual({ keys: 0, endpoints: 0 });
  });
});
