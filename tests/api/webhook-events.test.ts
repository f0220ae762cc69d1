/**
 * Issue 36, item 4: what the product's own changes send. A failed video's refund emits
 * video.failed and video.refunded (to the user's endpoints, and to the request's own webhook_url
 * signed with the request secret); credits.low fires once when a debit crosses the threshold;
 * an endpoint failing for 3 days is disabled and its owner mailed once; the user sees each
 * attempt's status and answer and can resend with the same webhook-id; the admin overview counts
 * it all. On PGlite, and PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Tx } from '../../server/core/db.ts';
import { videoTasks } from '../../server/db/schema.ts';
import { applyCreditChange } from '../../server/domains/credits/service.ts';
import { failAndRefund } from '../../server/domains/video/service.ts';
import { bearer, signInAdmin } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { outboxMailsTo } from '../helpers/outbox.ts';
import { grantCredits } from '../helpers/video.ts';
import { verifyAt, webhookTestbed, type WebhookTestbed } from './webhook-kit.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

describe.each(databaseKinds)('webhook events on %s', (kind) => {
  let k: WebhookTestbed;
  beforeAll(async () => {
    k = await webhookTestbed(kind);
  });
  afterEach(() => k.settleAll());
  afterAll(() => k.close());

  const call = (token: string, method: 'GET' | 'POST', url: string) =>
    k.t.app.inject({ method, url, headers: bearer(token) });
  /** A charged, unfinished video of `userId`, as an API request that named `webhookUrl`. */
  async function chargedTask(userId: string, webhookUrl: string | null) {
    const id = randomUUID();
    await k.db.transaction(async (tx) => {
      const change = { userId, amount: -17, sourceType: 'video_task', sourceId: id };
      await applyCreditChange(tx, { ...change, description: 'video' });
      await tx.insert(videoTasks).values({
        id,
        userId,
        model: 'veo3',
        mode: 'text',
        prompt: 'A lighthouse at dawn',
        provider: 'local',
        status: 'processing',
        deadlineAt: new Date(Date.now() + 60_000),
        creditsCharged: 17,
        webhookUrl,
      });
    });
    return id;
  }
  const eventsOf = (userId: string) =>
    queryRows<{ type: string }>(
      k.db,
      sql`select type from customer_webhook_events where user_id = ${userId} order by created_at`,
    );

  it('failAndRefund sends video.failed and video.refunded, signed, to endpoints and the request URL', async () => {
    const ann = await k.user();
    await grantCredits(k.t, ann.id, 100);
    const hook = await k.endpoint(ann.token, '/ann', ['video.failed', 'video.refunded']);
    const secret = (await call(ann.token, 'POST', '/api/account/webhooks/request-secret')).json()
      .data.secret as string;
    const taskId = await chargedTask(ann.id, `${k.receiver.url}/own`);

    const refund = (tx: Tx) =>
      failAndRefund(tx, taskId, 'The renderer crashed.', {}, k.t.config.publicSiteUrl);
    expect(await k.db.transaction(refund)).toEqual({ refunded: 17 });
    // A second call refunds nothing and emits nothing.
    expect(await k.db.transaction(refund)).toBe(false);
    // One transaction: the two events share a timestamp.
    expect((await eventsOf(ann.id)).map((e) => e.type).sort()).toEqual([
      'video.failed',
      'video.refunded',
    ]);

    k.clock.ms = Math.max(k.clock.ms, Date.now() + 1); // past now()'s microseconds (webhook-kit.ts)
    expect(await k.dispatcher.runOnce()).toBe(4);
    for (const [path, key] of [
      ['/ann', hook.secret],
      ['/own', secret],
    ] as const) {
      const requests = k.receiver.to(path);
      const bodies = requests.map((r) => verifyAt(key, r, k.clock.ms)) as Array<{
        type: string;
        data: { id: string; status: string; credits_charged: number };
      }>;
      expect(bodies.map((b) => b.type).sort()).toEqual(['video.failed', 'video.refunded']);
      expect(bodies[0]!.data).toMatchObject({ id: taskId, status: 'failed', credits_charged: 17 });
    }
    // The request URL's deliveries are listed under the request secret's row.
    const list = (await call(ann.token, 'GET', '/api/account/webhooks')).json().data;
    const own = await call(
      ann.token,
      'GET',
      `/api/account/webhooks/${list.request_secret.id}/deliveries`,
    );
    expect(own.json().data.items.map((d: { url: string }) => d.url)).toEqual([
      `${k.receiver.url}/own`,
      `${k.receiver.url}/own`,
    ]);
  });

  it('credits.low fires once when a debit crosses the threshold', async () => {
    const ann = await k.user();
    await grantCredits(k.t, ann.id, 100);
    await k.endpoint(ann.token, '/low', ['credits.low'], 50);
    const debit = (amount: number) =>
      k.db.transaction((tx) =>
        applyCreditChange(tx, {
          userId: ann.id,
          amount: -amount,
          sourceType: 'test_debit',
          sourceId: randomUUID(),
          description: 'test',
        }),
      );
    await debit(30); // 100 → 70: still above
    await debit(30); // 70 → 40: crosses 50
    await debit(10); // 40 → 30: already below
    expect((await eventsOf(ann.id)).map((e) => e.type)).toEqual(['credits.low']);
    k.clock.ms = Math.max(k.clock.ms, Date.now() + 1); // past now()'s microseconds (webhook-kit.ts)
    expect(await k.dispatcher.runOnce()).toBe(1);
    const [request] = k.receiver.to('/low');
    expect(JSON.parse(request!.body)).toMatchObject({
      type: 'credits.low',
      data: { balance: 40, previous_balance: 70 },
    });
  });

  it('an endpoint failing for 3 days is disabled and its owner mailed once', async () => {
    const ann = await k.user();
    const hook = await k.endpoint(ann.token, '/broken');
    k.receiver.answer = () => ({ status: 500, body: 'still broken' });
    await k.event(ann.id);
    const start = k.clock.ms;
    expect(await k.dispatcher.runOnce()).toBe(1);
    let [endpoint] = (await call(ann.token, 'GET', '/api/account/webhooks')).json().data.items;
    expect(endpoint.failing_since).toBe(new Date(start).toISOString());
    expect(endpoint.disabled_at).toBeNull();

    // Days later, still failing: a new event and the first's retry fail together.
    k.clock.ms = start + 2 * DAY;
    await k.event(ann.id);
    await k.dispatcher.runOnce();
    expect(
      (await call(ann.token, 'GET', '/api/account/webhooks')).json().data.items[0],
    ).toMatchObject({ disabled_at: null });
    k.clock.ms = start + 3 * DAY;
    await k.event(ann.id);
    await k.dispatcher.runOnce();
    [endpoint] = (await call(ann.token, 'GET', '/api/account/webhooks')).json().data.items;
    expect(endpoint.disabled_at).toBe(new Date(start + 3 * DAY).toISOString());
    expect((await k.deliveries(hook.id)).every((d) => d.status === 'failed')).toBe(true);
    expect(await k.event(ann.id)).toBeNull();

    const mails = await outboxMailsTo(k.t, ann.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toContain(`${k.receiver.url}/broken`);
    expect(mails[0]).toMatch(/failed for 3 days/);
    expect(mails[0]).toContain('/zh/account/api');
    expect(mails[0]).toMatch(/已停止/);
    expect(
      await k.t.app.metrics.registry.getSingleMetricAsString(
        'customer_webhook_endpoints_disabled_total',
      ),
    ).toMatch(/customer_webhook_endpoints_disabled_total [1-9]/);

    // A disabled endpoint's deliveries cannot be resent.
    const [delivery] = await k.deliveries(hook.id);
    const resend = await call(
      ann.token,
      'POST',
      `/api/account/webhooks/deliveries/${delivery!.id}/resend`,
    );
    expect(resend.statusCode).toBe(409);
    expect(resend.json().code).toBe('WEBHOOK_ENDPOINT_DISABLED');
  });

  it("lists each attempt's status and answer, and resends with the same webhook-id", async () => {
    const ann = await k.user();
    const bob = await k.user();
    const hook = await k.endpoint(ann.token, '/listed');
    k.receiver.answer = () =>
      k.receiver.to('/listed').length === 0
        ? { status: 500, body: 'boom' }
        : { status: 202, body: 'thanks' };
    const eventId = await k.event(ann.id);
    await k.dispatcher.runOnce();
    k.clock.ms += 5000;
    await k.dispatcher.runOnce();

    const page = await call(ann.token, 'GET', `/api/account/webhooks/${hook.id}/deliveries`);
    expect(page.statusCode).toBe(200);
    const [delivery] = page.json().data.items;
    expect(delivery).toMatchObject({
      event_id: eventId,
      status: 'delivered',
      next_attempt_at: null,
      payload: k.receiver.to('/listed')[0]!.body,
    });
    expect(delivery.attempts).toMatchObject([
      { status_code: 500, response: 'boom' },
      { status_code: 202, response: 'thanks' },
    ]);
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(0);

    const path = `/api/account/webhooks/deliveries/${delivery.id}/resend`;
    expect((await call(bob.token, 'POST', path)).statusCode).toBe(404);
    const resent = await call(ann.token, 'POST', path);
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data).toMatchObject({ id: delivery.id, status: 'pending' });
    expect(await k.dispatcher.runOnce()).toBe(1);
    const requests = k.receiver.to('/listed');
    expect(requests).toHaveLength(3);
    expect(requests[2]!.headers['webhook-id']).toBe(eventId);
    expect(requests[2]!.body).toBe(requests[0]!.body);
  });

  // After the tests above (a file's tests run in order): their attempts are the last 24 hours'.
  it("the admin overview counts the last 24 hours' deliveries and disabled endpoints", async () => {
    const admin = await signInAdmin(k.t.app);
    const res = await k.t.app.inject({
      url: '/api/admin/overview?fresh=true',
      headers: bearer(admin),
    });
    expect(res.statusCode).toBe(200);
    const counts = res.json().data.customerWebhooks24h;
    expect(counts.sent).toBeGreaterThanOrEqual(4);
    expect(counts.retried).toBeGreaterThanOrEqual(2);
    expect(counts.failed).toBeGreaterThanOrEqual(1);
    expect(counts.endpointsDisabled).toBe(1);
  });
});
