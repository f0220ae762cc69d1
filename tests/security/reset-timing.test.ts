/**
 * Finding 6 of issue 34: a password reset for a missing address answered in 4–9 ms, for an
 * existing one in 9–32 ms (with SMTP the gap is a full round trip), so its time told who has an
 * account. Now the lookup, the token and the mail all happen after the answer: the answer takes
 * the same time either way. The mailer here takes 30 ms a mail, as an SMTP server does.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail } from '../../server/core/mailer.ts';
import { users } from '../../server/db/schema.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

const ROUNDS = 20;
const SMTP_ROUND_TRIP_MS = 30;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

describe('Reset timing tells which accounts exist', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    const sent: Mail[] = [];

    beforeAll(async () => {
      const mailer = {
        async send(mail: Mail) {
          await sleep(SMTP_ROUND_TRIP_MS);
          sent.push(mail);
        },
      };
      t = await createTestApp(kind, { deps: { mailer } });
      // One account per round, so every request for an existing address mails (no budget cap).
      await t.database.db.insert(users).values(
        Array.from({ length: ROUNDS + 2 }, (_, i) => ({
          email: `exists-${i}@example.com`,
          provider: 'email' as const,
          emailVerifiedAt: new Date(),
        })),
      );
    });
    afterAll(async () => {
      await t?.close();
    });

    /** The time until the answer of one reset request; queued mail goes out before the next. */
    async function timeReset(email: string): Promise<number> {
      const started = performance.now();
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email },
      });
      const elapsed = performance.now() - started;
      expect(res.statusCode).toBe(200);
      await t.app.accounts.queuedMailSettled();
      return elapsed;
    }

    it(`answers in the same time (medians of ${ROUNDS} within 5 ms) whether the account exists or not`, async () => {
      // Warm-up: the first requests compile the route's code paths.
      for (const i of [ROUNDS, ROUNDS + 1]) {
        await timeReset(`exists-${i}@example.com`);
        await timeReset(`missing-warm-up-${i}@example.com`);
      }
      const existing: number[] = [];
      const missing: number[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        existing.push(await timeReset(`exists-${i}@example.com`));
        missing.push(await timeReset(`missing-${i}@example.com`));
      }

      const gap = median(existing) - median(missing);
      expect(
        Math.abs(gap),
        `existing ${median(existing)} ms, missing ${median(missing)} ms`,
      ).toBeLessThan(5);
      // The existing accounts did get their mail, after the answer; the missing ones none.
      const mailed = new Set(sent.map((mail) => mail.to));
      for (let i = 0; i < ROUNDS; i++) expect(mailed).toContain(`exists-${i}@example.com`);
      expect([...mailed].filter((to) => to.startsWith('missing'))).toEqual([]);
    });
  });
});
