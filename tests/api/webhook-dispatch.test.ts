/**
 * Issue 36, item 4: the dispatcher sends the outbox signed per Standard Webhooks (checked by the
 * `standardwebhooks` package), retries with growing waits on a moved clock, stops on 410, takes
 * over a crashed sender's claim with the same webhook-id, signs with both secrets during a
 * rotation's overlap, refuses private addresses at send time, and writes nothing for a change
 * that rolled back. On PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WebhookVerificationError } from 'standardwebhooks';
import { queryRows } from '../../server/core/db.ts';
import { recordEvent } from '../../server/core/webhook-outbox.ts';
import { claimDue } from '../../server/domains/api/dispatch-repository.ts';
import {
  createWebhookDispatcher,
  DELIVERY_LEASE_MS,
  retryDelayMs,
} from '../../server/domains/api/dispatcher.ts';
import { bearer } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { verifyAt, webhookTestbed, type WebhookTestbed } from './webhook-kit.ts';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

describe('retry waits', () => {
  it('grow 4× from 5 s to the 6 h cap, each within ±20 %', () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 0.5))).toEqual(
      [5, 20, 80, 320].map((s) => s * SECOND),
    );
    expect(retryDelayMs(20, 0.5)).toBe(6 * HOUR);
    expect(retryDelayMs(1, 0)).toBe(4 * SECOND);
    expect(retryDelayMs(1, 0.999_999)).toBeLessThanOrEqual(6 * SECOND);
    expect(retryDelayMs(1, 0.999_999)).toBeGreaterThan(5.9 * SECOND);
  });
});

describe.each(databaseKinds)('webhook dispatch on %s', (kind) => {
  let k: WebhookTestbed;
  beforeAll(async () => {
    k = await webhookTestbed(kind);
  });
  afterEach(() => k.settleAll());
  afterAll(() => k.close());

  it('signs the stored body per Standard Webhooks; the package verifies it', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/signed');
    const eventId = await k.event(ann.id, 'video.completed', { id: 'v1', note: 'naïve ✓' });
    expect(eventId).toBeTruthy();
    expect(await k.dispatcher.runOnce()).toBe(1);

    const [request] = k.receiver.to('/signed');
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['user-agent']).toMatch(/Webhooks/);
    expect(request!.headers['webhook-id']).toBe(eventId);
    expect(request!.headers['webhook-timestamp']).toBe(String(Math.floor(k.clock.ms / 1000)));
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    const body = verifyAt(hook.secret, request!, k.clock.ms);
    expect(body).toMatchObject({ type: 'video.completed', data: { id: 'v1', note: 'naïve ✓' } });
    // The bytes sent are the stored payload, byte for byte.
    const [stored] = await queryRows<{ payload: string }>(
      k.db,
      sql`select payload from customer_webhook_events where id = ${eventId}`,
    );
    expect(request!.body).toBe(stored!.payload);
    // Another secret does not verify it; nor does a changed body.
    const other = await k.endpoint(ann.token, '/other');
    expect(() => verifyAt(other.secret, request!, k.clock.ms)).toThrow(WebhookVerificationError);
    expect(() =>
      verifyAt(hook.secret, { ...request!, body: request!.body.replace('v1', 'v2') }, k.clock.ms),
    ).toThrow(WebhookVerificationError);
    expect((await k.deliveries(hook.id))[0]).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
    });
  });

  it('retries after 500s with growing waits on the moved clock, then delivers', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/flaky');
    k.receiver.answer = () =>
      k.receiver.to('/flaky').length < 2 ? { status: 500, body: 'boom' } : { status: 200 };
    await k.event(ann.id);
    const start = k.clock.ms;

    expect(await k.dispatcher.runOnce()).toBe(1);
    let [delivery] = await k.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
    expect(delivery!.next_attempt_at!.getTime() - start).toBe(5 * SECOND);
    // Not due yet: nothing is sent.
    k.clock.ms = start + 4 * SECOND;
    expect(await k.dispatcher.runOnce()).toBe(0);

    k.clock.ms = start + 5 * SECOND;
    expect(await k.dispatcher.runOnce()).toBe(1);
    [delivery] = await k.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 2 });
    expect(delivery!.next_attempt_at!.getTime() - k.clock.ms).toBe(20 * SECOND);

    k.clock.ms += 20 * SECOND;
    expect(await k.dispatcher.runOnce()).toBe(1);
    [delivery] = await k.deliveries(hook.id);
    expect(delivery).toMatchObject({
      status: 'delivered',
      attempt_count: 3,
      next_attempt_at: null,
    });

    const requests = k.receiver.to('/flaky');
    expect(requests.map((r) => r.status)).toEqual([500, 500, 200]);
    // One event: the same webhook-id every time, each attempt signed at its own time.
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    const stamps = requests.map((r) => Number(r.headers['webhook-timestamp']) * 1000);
    expect(stamps).toEqual(
      [start, start + 5 * SECOND, start + 25 * SECOND].map((ms) => Math.floor(ms / 1000) * 1000),
    );
    for (const [i, request] of requests.entries()) verifyAt(hook.secret, request, stamps[i]!);
    expect(
      await k.t.app.metrics.registry.getSingleMetricAsString('customer_webhook_deliveries_total'),
    ).toMatch(/outcome="retried"} [1-9]/);
  });

  it('gives up once the next wait would pass 24 hours after the event', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/down');
    k.receiver.answer = () => ({ status: 503 });
    const eventId = await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    const [event] = await queryRows<{ created_at: Date }>(
      k.db,
      sql`select created_at from customer_webhook_events where id = ${eventId}`,
    );
    // The second attempt's next wait (20 s) would end 10 s past the 24 hours.
    k.clock.ms = new Date(event!.created_at).getTime() + 24 * HOUR - 10 * SECOND;
    expect(await k.dispatcher.runOnce()).toBe(1);
    const [delivery] = await k.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 2, next_attempt_at: null });
    k.clock.ms += HOUR;
    expect(await k.dispatcher.runOnce()).toBe(0);
  });

  it('410 Gone fails the delivery, stops retries and disables the endpoint', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/gone');
    k.receiver.answer = () => ({ status: 410, body: 'gone' });
    await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    expect((await k.deliveries(hook.id))[0]).toMatchObject({ status: 'failed', attempt_count: 1 });
    k.clock.ms += 7 * HOUR;
    expect(await k.dispatcher.runOnce()).toBe(0);
    expect(k.receiver.to('/gone')).toHaveLength(1);
    const list = await k.t.app.inject({ url: '/api/account/webhooks', headers: bearer(ann.token) });
    expect(list.json().data.items[0].disabled_at).not.toBeNull();
    // A disabled endpoint gets no new events.
    expect(await k.event(ann.id)).toBeNull();
  });

  it('a sender that crashed after claiming: the next one delivers after the lease, same webhook-id', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/crash');
    const eventId = await k.event(ann.id);
    // Claim as a sender does, then "crash": never send, never settle.
    const now = new Date(k.clock.ms);
    const claimed = await claimDue(k.db, now, new Date(k.clock.ms + DELIVERY_LEASE_MS), 10);
    expect(claimed.map((d) => d.eventId)).toEqual([eventId]);
    // Held: another sender skips it.
    expect(await k.dispatcher.runOnce()).toBe(0);
    k.clock.ms += DELIVERY_LEASE_MS - SECOND;
    expect(await k.dispatcher.runOnce()).toBe(0);
    k.clock.ms += 2 * SECOND;
    expect(await k.dispatcher.runOnce()).toBe(1);
    const requests = k.receiver.to('/crash');
    expect(requests).toHaveLength(1);
    expect(requests[0]!.headers['webhook-id']).toBe(eventId);
    verifyAt(hook.secret, requests[0]!, k.clock.ms);
    expect((await k.deliveries(hook.id))[0]).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
    });
  });

  it('after a rotation both secrets sign for 24 hours, then only the new one', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/rotated');
    const rotated = await k.t.app.inject({
      method: 'POST',
      url: `/api/account/webhooks/${hook.id}/rotate`,
      headers: bearer(ann.token),
    });
    expect(rotated.statusCode).toBe(200);
    const fresh = rotated.json().data;
    expect(fresh.secret).not.toBe(hook.secret);
    expect(Date.parse(fresh.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * HOUR);

    await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    const during = k.receiver.to('/rotated')[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    verifyAt(hook.secret, during, k.clock.ms);
    verifyAt(fresh.secret, during, k.clock.ms);

    k.clock.ms += 24 * HOUR + SECOND;
    await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    const after = k.receiver.to('/rotated')[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    verifyAt(fresh.secret, after, k.clock.ms);
    expect(() => verifyAt(hook.secret, after, k.clock.ms)).toThrow(WebhookVerificationError);
  });

  it('a private address is refused at send time too (a failed attempt saying why)', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/rebind');
    // As if its name now resolved to a private address: the URL is on no allow-list.
    await queryRows(
      k.db,
      sql`update webhook_endpoints set url = 'http://127.0.0.1:9/hook' where id = ${hook.id}`,
    );
    await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    const [delivery] = await k.deliveries(hook.id);
    expect(delivery).toMatchObject({ status: 'pending', attempt_count: 1 });
    const [attempt] = await queryRows<{
      status_code: number | null;
      response: string;
      outcome: string;
    }>(
      k.db,
      sql`select status_code, response, outcome from webhook_attempts where delivery_id = ${delivery!.id}`,
    );
    expect(attempt).toMatchObject({ status_code: null, outcome: 'retried' });
    expect(attempt!.response).toMatch(/Refused: 127\.0\.0\.1 is not a public address/);
  });

  it('a redirect is not followed: a failed attempt', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/moved');
    k.receiver.answer = (req) =>
      req.path === '/moved'
        ? { status: 301, headers: { location: `${k.receiver.url}/target` } }
        : { status: 200 };
    await k.event(ann.id);
    expect(await k.dispatcher.runOnce()).toBe(1);
    expect(k.receiver.to('/target')).toHaveLength(0);
    expect((await k.deliveries(hook.id))[0]).toMatchObject({ status: 'pending', attempt_count: 1 });
  });

  it('a transaction that rolls back writes no event and sends nothing', async () => {
    const ann = await k.user();
    await k.endpoint(ann.token, '/rolled-back');
    await expect(
      k.db.transaction(async (tx) => {
        expect(
          await recordEvent(tx, { userId: ann.id, type: 'video.completed', data: {} }),
        ).toBeTruthy();
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const [count] = await queryRows<{ n: number }>(
      k.db,
      sql`select count(*)::int as n from customer_webhook_events where user_id = ${ann.id}`,
    );
    expect(count!.n).toBe(0);
    expect(await k.dispatcher.runOnce()).toBe(0);
    expect(k.receiver.to('/rolled-back')).toHaveLength(0);
  });

  it('two senders polling at once send each delivery once', async () => {
    const ann = await k.user();
    await k.endpoint(ann.token, '/shared');
    const ids = new Set<string | null>();
    for (let i = 0; i < 8; i++) ids.add(await k.event(ann.id, 'video.completed', { i }));
    const other = createWebhookDispatcher({
      db: k.db,
      config: k.t.config,
      mailer: { send: async () => {} },
      log: k.t.app.log,
      metrics: k.t.app.metrics,
      now: () => new Date(k.clock.ms),
    });
    const [a, b] = await Promise.all([k.dispatcher.runOnce(), other.runOnce()]);
    expect(a + b + (await k.dispatcher.runOnce())).toBe(8);
    const sent = k.receiver.to('/shared').map((r) => r.headers['webhook-id']);
    expect(sent).toHaveLength(8);
    expect(new Set(sent)).toEqual(ids);
  });

  it('purge() deletes events older than 30 days with their deliveries', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/old');
    await k.event(ann.id);
    await k.dispatcher.runOnce();
    k.clock.ms += 29 * 24 * HOUR;
    await k.dispatcher.purge();
    expect(await k.deliveries(hook.id)).toHaveLength(1);
    k.clock.ms += 2 * 24 * HOUR;
    expect(await k.dispatcher.purge()).toBeGreaterThanOrEqual(1);
    expect(await k.deliveries(hook.id)).toHaveLength(0);
  });

  it('start() sends what is due until stop()', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/looped');
    // Ahead of the database's clock, so the event is due as soon as it is written.
    k.clock.ms = Date.now() + 60 * SECOND;
    k.dispatcher.start();
    await k.event(ann.id);
    await expect.poll(() => k.receiver.to('/looped').length, { timeout: 10_000 }).toBe(1);
    await k.dispatcher.stop();
    expect((await k.deliveries(hook.id))[0]).toMatchObject({ status: 'delivered' });
  });
});
