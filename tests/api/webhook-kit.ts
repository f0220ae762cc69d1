/**
 * What the webhook tests share: an app that may reach a local receiver (OUTBOUND_ALLOW_HOSTS), a
 * dispatcher on a clock the test moves, users with endpoints, events written to the outbox, and
 * signature checks by the `standardwebhooks` package (an implementation independent of ours).
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { createOutboxMailer } from '../../server/core/mailer.ts';
import { recordEvent } from '../../server/core/webhook-outbox.ts';
import { createWebhookDispatcher } from '../../server/domains/api/dispatcher.ts';
import type { WebhookEndpointWithSecret, WebhookEventType } from '../../shared/public-api.ts';
import { startWebhookReceiver, type ReceivedWebhook } from '../fakes/webhook-receiver.ts';
import { bearer, createTestApp, signInLocal } from '../helpers/app.ts';
import type { DatabaseKind } from '../helpers/database.ts';

/**
 * Verifies a received request with `secret` as a receiver would, its clock at `atMs` (the
 * package refuses timestamps 5 minutes away from its Date.now(); tests move the sender's clock).
 * Returns the parsed body; throws WebhookVerificationError when no signature matches.
 */
export function verifyAt(secret: string, request: ReceivedWebhook, atMs: number): unknown {
  const spy = vi.spyOn(Date, 'now').mockReturnValue(atMs);
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    spy.mockRestore();
  }
}

export async function webhookTestbed(kind: DatabaseKind) {
  const receiver = await startWebhookReceiver();
  const t = await createTestApp(kind, { env: { OUTBOUND_ALLOW_HOSTS: receiver.hostPort } });
  const db = t.database.db;
  /** The dispatcher's clock: tests move `clock.ms`. */
  const clock = { ms: Date.now() };
  const dispatcher = createWebhookDispatcher({
    db,
    config: t.config,
    mailer: createOutboxMailer(path.join(t.dataDir, 'outbox'), 'noreply@example.com'),
    log: t.app.log,
    metrics: t.app.metrics,
    now: () => new Date(clock.ms),
    // No jitter: retries land exactly on 5 s, 20 s, 80 s … (the jitter has its own test).
    random: () => 0.5,
  });
  let users = 0;

  return {
    t,
    db,
    receiver,
    clock,
    dispatcher,
    /** A new signed-in user. */
    async user() {
      const email = `hooks-${kind}-${++users}@example.com`;
      const session = await signInLocal(t.app, email);
      return { token: session.token, id: session.user.id, email };
    },
    /** Registers an endpoint on the receiver at `path` through the session API. */
    async endpoint(
      token: string,
      pathname: string,
      events: WebhookEventType[] = ['video.completed'],
      creditsLowThreshold?: number,
    ): Promise<WebhookEndpointWithSecret> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/account/webhooks',
        headers: bearer(token),
        payload: {
          url: `${receiver.url}${pathname}`,
          events,
          ...(creditsLowThreshold === undefined
            ? {}
            : { credits_low_threshold: creditsLowThreshold }),
        },
      });
      if (res.statusCode !== 201) throw new Error(`endpoint not created: ${res.body}`);
      return res.json().data;
    },
    /**
     * Writes an event to the outbox, as a committed change of the user would, and brings the
     * clock up to now if it was behind (the event is due at the database's now()). One
     * millisecond past: now() keeps microseconds, so the same millisecond read by Date.now() can
     * be earlier than the event and leave it not yet due.
     */
    async event(
      userId: string,
      type: WebhookEventType = 'video.completed',
      data: unknown = { n: 1 },
    ) {
      const id = await recordEvent(db, { userId, type, data });
      clock.ms = Math.max(clock.ms, Date.now() + 1);
      return id;
    },
    /** The deliveries of an endpoint, oldest first. */
    async deliveries(endpointId: string) {
      const rows = await queryRows<{
        id: string;
        event_id: string;
        status: string;
        attempt_count: number;
        next_attempt_at: Date | string | null;
      }>(
        db,
        sql`select id, event_id, status, attempt_count, next_attempt_at from webhook_deliveries
            where endpoint_id = ${endpointId} order by created_at, id`,
      );
      return rows.map((row) => ({
        ...row,
        next_attempt_at: row.next_attempt_at === null ? null : new Date(row.next_attempt_at),
      }));
    },
    /** Ends every pending delivery, so the next test's polls see only its own. */
    async settleAll() {
      await queryRows(
        db,
        sql`update webhook_deliveries set status = 'failed' where status = 'pending'`,
      );
      receiver.answer = () => ({ status: 200, body: 'ok' });
      clock.ms = Date.now();
    },
    async close() {
      await dispatcher.stop();
      await t.close();
      await receiver.close();
    },
  };
}

export type WebhookTestbed = Awaited<ReturnType<typeof webhookTestbed>>;
