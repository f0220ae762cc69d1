/**
 * Issue 36, item 4: a user's webhook endpoints through the session API (/api/account/webhooks):
 * registration with a Standard Webhooks secret shown once, the limits, the URL rule (private
 * addresses, https in production, no credentials), removal and rotation of one's own endpoints
 * only, the request secret, and the deliveries list's pages.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { PUBLIC_ONLY } from '../../server/core/outbound.ts';
import { recordEvent } from '../../server/core/webhook-outbox.ts';
import { assertDeliverableUrl } from '../../server/domains/api/webhook-url.ts';
import { MAX_WEBHOOK_ENDPOINTS } from '../../shared/public-api.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';

describe('the webhook URL rule', () => {
  const production = { isProduction: true, outbound: PUBLIC_ONLY };
  const local = { isProduction: false, outbound: PUBLIC_ONLY };
  const refusal = (config: typeof local, url: string) =>
    assertDeliverableUrl(config, url).then(
      () => 'accepted',
      (err: { code: string; message: string }) => `${err.code}: ${err.message}`,
    );

  it('takes public http(s) addresses; https only in production', async () => {
    expect(await refusal(local, 'https://93.184.215.14/hooks')).toBe('accepted');
    expect(await refusal(local, 'http://93.184.215.14:8080/hooks')).toBe('accepted');
    expect(await refusal(production, 'https://93.184.215.14/hooks')).toBe('accepted');
    expect(await refusal(production, 'http://93.184.215.14/hooks')).toMatch(
      /^WEBHOOK_URL_INVALID: .*https:\/\//,
    );
  });

  it('refuses private, loopback and link-local addresses, and names that resolve to them', async () => {
    for (const url of [
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/x',
      'http://127.0.0.1:3000/x',
      'http://localhost:3000/x',
    ]) {
      expect(await refusal(local, url)).toMatch(
        /^WEBHOOK_URL_INVALID: .*not a public internet address/,
      );
    }
    expect(await refusal(local, 'http://169.254.169.254/x')).toMatch(/169\.254\.169\.254/);
  });

  it('refuses other schemes, credentials, relative and overlong URLs, naming why', async () => {
    expect(await refusal(local, 'ftp://93.184.215.14/x')).toMatch(/only http and https/);
    expect(await refusal(local, 'https://me:pw@93.184.215.14/x')).toMatch(/user name or password/);
    expect(await refusal(local, '/hooks')).toMatch(/not an absolute URL/);
    expect(await refusal(local, `https://93.184.215.14/${'a'.repeat(2000)}`)).toMatch(
      /longer than 2000 characters/,
    );
    expect(await refusal(local, 'https://nothing.invalid/x')).toMatch(/does not resolve/);
  });
});

describe('webhook endpoints for the session', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    t = await createTestApp('pglite', { env: { OUTBOUND_ALLOW_HOSTS: receiver.hostPort } });
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  let n = 0;
  const user = async () => signInLocal(t.app, `endpoints-${++n}@example.com`);
  const call = (token: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const create = (token: string, payload: object) =>
    call(token, 'POST', '/api/account/webhooks', payload);
  const hookUrl = (path = '/hook') => `${receiver.url}${path}`;

  it('registers an endpoint with a whsec_ secret shown once, which the package accepts', async () => {
    const ann = await user();
    const res = await create(ann.token, {
      url: hookUrl(),
      events: ['credits.low', 'video.completed'],
    });
    expect(res.statusCode).toBe(201);
    const created = res.json().data;
    expect(created).toMatchObject({
      url: hookUrl(),
      events: ['video.completed', 'credits.low'],
      credits_low_threshold: 50,
      previous_secret_expires_at: null,
      failing_since: null,
      disabled_at: null,
    });
    // whsec_ + base64 of 24 bytes: what Standard Webhooks libraries take.
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(24);
    expect(() => new Webhook(created.secret)).not.toThrow();

    const list = await call(ann.token, 'GET', '/api/account/webhooks');
    expect(list.statusCode).toBe(200);
    expect(list.json().data).toEqual({
      items: [{ ...created, secret: undefined }],
      request_secret: null,
    });
    expect(list.body).not.toContain(created.secret.slice(6));
  });

  it('refuses bad input: no events, unknown events, a threshold below 1, a private address', async () => {
    const ann = await user();
    for (const payload of [
      { url: hookUrl(), events: [] },
      { url: hookUrl(), events: ['video.exploded'] },
      { url: hookUrl(), events: ['credits.low'], credits_low_threshold: 0 },
      { url: hookUrl(), events: ['credits.low'], credits_low_threshold: 2.5 },
    ]) {
      const res = await create(ann.token, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const res = await create(ann.token, { url: 'http://127.0.0.1:9/x', events: ['video.failed'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'WEBHOOK_URL_INVALID' });
    expect(res.json().message).toMatch(/127\.0\.0\.1/);
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/account/webhooks',
      headers: { ...bearer(ann.token), 'accept-language': 'zh-CN' },
      payload: { url: 'http://10.0.0.1/x', events: ['video.failed'] },
    });
    expect(zh.json().message).toMatch(/不是公网地址/);
    const list = await call(ann.token, 'GET', '/api/account/webhooks');
    expect(list.json().data.items).toEqual([]);
    expect((await t.app.inject({ url: '/api/account/webhooks' })).statusCode).toBe(401);
  });

  it(`takes at most ${MAX_WEBHOOK_ENDPOINTS} endpoints per user`, async () => {
    const ann = await user();
    for (let i = 0; i < MAX_WEBHOOK_ENDPOINTS; i++) {
      const res = await create(ann.token, { url: hookUrl(`/${i}`), events: ['video.failed'] });
      expect(res.statusCode).toBe(201);
    }
    const res = await create(ann.token, { url: hookUrl('/one-more'), events: ['video.failed'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('WEBHOOK_LIMIT_REACHED');
  });

  it("removes and rotates one's own endpoints only", async () => {
    const ann = await user();
    const bob = await user();
    const hook = (await create(ann.token, { url: hookUrl(), events: ['video.failed'] })).json()
      .data;
    expect((await call(bob.token, 'DELETE', `/api/account/webhooks/${hook.id}`)).statusCode).toBe(
      404,
    );
    expect(
      (await call(bob.token, 'POST', `/api/account/webhooks/${hook.id}/rotate`)).statusCode,
    ).toBe(404);
    expect(
      (await call(bob.token, 'GET', `/api/account/webhooks/${hook.id}/deliveries`)).statusCode,
    ).toBe(404);

    const first = (await call(ann.token, 'POST', `/api/account/webhooks/${hook.id}/rotate`)).json()
      .data;
    expect(first.secret).not.toBe(hook.secret);
    expect(first.previous_secret_expires_at).not.toBeNull();
    const second = (await call(ann.token, 'POST', `/api/account/webhooks/${hook.id}/rotate`)).json()
      .data;
    expect(second.secret).not.toBe(first.secret);

    const removed = await call(ann.token, 'DELETE', `/api/account/webhooks/${hook.id}`);
    expect(removed.statusCode).toBe(204);
    expect((await call(ann.token, 'GET', '/api/account/webhooks')).json().data.items).toEqual([]);
    expect((await call(ann.token, 'DELETE', `/api/account/webhooks/${hook.id}`)).statusCode).toBe(
      404,
    );
  });

  it('creates the request secret, then rotates it; the list never shows it', async () => {
    const ann = await user();
    expect(await t.app.webhooks.requestSecretExists(ann.user.id)).toBe(false);
    const first = await call(ann.token, 'POST', '/api/account/webhooks/request-secret');
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ previous_secret_expires_at: null });
    expect(first.json().data.secret).toMatch(/^whsec_/);
    expect(await t.app.webhooks.requestSecretExists(ann.user.id)).toBe(true);

    const again = (await call(ann.token, 'POST', '/api/account/webhooks/request-secret')).json()
      .data;
    expect(again.id).toBe(first.json().data.id);
    expect(again.secret).not.toBe(first.json().data.secret);
    expect(again.previous_secret_expires_at).not.toBeNull();

    const list = await call(ann.token, 'GET', '/api/account/webhooks');
    expect(list.json().data).toEqual({
      items: [],
      request_secret: {
        id: again.id,
        created_at: again.created_at,
        previous_secret_expires_at: again.previous_secret_expires_at,
      },
    });
    expect(list.body).not.toContain(again.secret.slice(6));
  });

  it('pages deliveries newest first with a cursor', async () => {
    const ann = await user();
    const hook = (await create(ann.token, { url: hookUrl(), events: ['video.completed'] })).json()
      .data;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push(
        (await recordEvent(t.database.db, {
          userId: ann.user.id,
          type: 'video.completed',
          data: { i },
        }))!,
      );
    }
    const url = `/api/account/webhooks/${hook.id}/deliveries`;
    const first = (await call(ann.token, 'GET', `${url}?limit=2`)).json().data;
    expect(first.items.map((d: { event_id: string }) => d.event_id)).toEqual([ids[2], ids[1]]);
    expect(first.items[0]).toMatchObject({
      event_type: 'video.completed',
      url: hookUrl(),
      status: 'pending',
      attempts: [],
    });
    expect(JSON.parse(first.items[0].payload)).toMatchObject({ data: { i: 2 } });
    const second = (
      await call(ann.token, 'GET', `${url}?limit=2&cursor=${first.next_cursor}`)
    ).json().data;
    expect(second.items.map((d: { event_id: string }) => d.event_id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    expect((await call(ann.token, 'GET', `${url}?cursor=not-a-cursor`)).statusCode).toBe(400);
  });
});
