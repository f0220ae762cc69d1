/**
 * Finding 2 of issue 16: eight parallel pays of one user's subscription checkouts (local
 * checkout on PostgreSQL) left eight active subscriptions. One active subscription per user is
 * now a partial unique index, checkouts are created and fulfilled under a per-user lock, and
 * with Stripe a second subscription that arrives anyway is cancelled and refunded, granting
 * nothing.
 */
import { readFile } from 'node:fs/promises';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  checkoutSessions,
  creditTransactions,
  duplicateSubscriptions,
  subscriptions,
  users,
} from '../../server/db/schema.ts';
import { ACTIVE_STATUSES } from '../../server/domains/billing/repository.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import { BILLING_MESSAGES, findPlan } from '../../shared/billing.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import {
  openLocalCheckoutForm,
  requestCheckout,
  SITE_ORIGIN,
  submitLocalCheckout,
} from '../helpers/billing.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';
import { localCheckoutForm } from '../helpers/local-checkout.ts';

describe('One active subscription per user', () => {
  describe.each(databaseKinds)('local checkout on %s', (kind) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind);
    });
    afterAll(() => t.close());

    const activeRows = (userId: string) =>
      t.database.db
        .select()
        .from(subscriptions)
        .where(
          and(eq(subscriptions.userId, userId), inArray(subscriptions.status, ACTIVE_STATUSES)),
        );
    const createSubscriptionCheckout = async (token: string, planId: string) => {
      const res = await requestCheckout(t.app, token, { type: 'subscription', plan_id: planId });
      expect(res.statusCode).toBe(200);
      return (res.json() as { sessionId: string }).sessionId;
    };
    const cancelSubscription = (token: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/stripe/subscription/cancel',
        headers: bearer(token),
        payload: { immediately: true },
      });
    /** Opens each checkout's page first, then presses all their Pay buttons at the same moment. */
    const payAllAtOnce = async (sessionIds: string[]) => {
      const forms = await Promise.all(
        sessionIds.map(async (id) =>
          localCheckoutForm((await t.app.inject(`/checkout/local/${id}`)).body),
        ),
      );
      return Promise.all(
        sessionIds.map((id, i) =>
          t.app.inject({
            method: 'POST',
            url: `/checkout/local/${id}/pay`,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              origin: SITE_ORIGIN,
              'sec-fetch-site': 'same-origin',
            },
            payload: forms[i],
          }),
        ),
      );
    };
    const validLedger = async (userId: string) =>
      expect((await createCreditsService(t.database.db).validate(userId)).valid).toBe(true);

    it('8 parallel pays of 8 subscription checkouts start one subscription and grant one period', async () => {
      const ann = await signInLocal(t.app, `ann-eight-${kind}@example.com`);
      const plans = ['lite', 'pro', 'lite', 'pro+', 'pro', 'lite', 'pro', 'lite'];
      // All eight are created before any is paid: creating is refused once one is active.
      const sessionIds: string[] = [];
      for (const plan of plans) sessionIds.push(await createSubscriptionCheckout(ann.token, plan));

      const answers = await payAllAtOnce(sessionIds);

      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses).toEqual([303, 409, 409, 409, 409, 409, 409, 409]);
      for (const res of answers.filter((r) => r.statusCode === 409)) {
        expect(res.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
      }
      const active = await activeRows(ann.user.id);
      expect(active).toHaveLength(1);
      const plan = findPlan(active[0]!.planId)!;
      expect(await creditBalance(t.app, ann.token)).toBe(plan.credits);
      const paid = await t.database.db
        .select()
        .from(checkoutSessions)
        .where(and(eq(checkoutSessions.userId, ann.user.id), eq(checkoutSessions.status, 'paid')));
      expect(paid).toHaveLength(1);
      expect(paid[0]!.subscriptionId).toBe(active[0]!.id);
      await validLedger(ann.user.id);

      // And a ninth checkout is refused up front while the subscription is active.
      const ninth = await requestCheckout(t.app, ann.token, {
        type: 'subscription',
        plan_id: 'lite',
      });
      expect(ninth.statusCode).toBe(409);
      expect(ninth.json().message).toBe(BILLING_MESSAGES.alreadySubscribed);
    });

    it('the database itself refuses a second active subscription of one user', async () => {
      const bob = await signInLocal(t.app, `bob-index-${kind}@example.com`);
      const row = (id: string, status: string) => ({
        id,
        provider: 'local' as const,
        userId: bob.user.id,
        planId: 'lite',
        billingCycle: 'monthly' as const,
        status,
        currentPeriodStart: new Date(),
        currentPeriodEnd: new Date(Date.now() + 30 * 86400_000),
      });
      await t.database.db.insert(subscriptions).values(row(`sub_idx_a_${kind}`, 'active'));
      // Canceled ones may be many; a second active, trialing or past_due one may not.
      await t.database.db.insert(subscriptions).values(row(`sub_idx_b_${kind}`, 'canceled'));
      for (const status of ACTIVE_STATUSES) {
        await expect(
          t.database.db.insert(subscriptions).values(row(`sub_idx_${status}_${kind}`, status)),
        ).rejects.toThrow();
      }
      expect(await activeRows(bob.user.id)).toHaveLength(1);
    });

    it('pay racing the subscription cancel ends in one consistent state', async () => {
      for (let round = 0; round < 4; round++) {
        const cy = await signInLocal(t.app, `cy-race-${round}-${kind}@example.com`);
        const first = await createSubscriptionCheckout(cy.token, 'lite');
        const second = await createSubscriptionCheckout(cy.token, 'pro');
        expect((await submitLocalCheckout(t.app, first)).statusCode).toBe(303);

        const [pay, cancel] = await Promise.all([
          submitLocalCheckout(t.app, second),
          cancelSubscription(cy.token),
        ]);
        expect(cancel.statusCode).toBe(200);
        expect([303, 409]).toContain(pay.statusCode);
        const active = await activeRows(cy.user.id);
        const balance = await creditBalance(t.app, cy.token);
        if (pay.statusCode === 303) {
          // The cancel ended Lite first; Pro then started and granted its period.
          expect(active.map((s) => s.planId)).toEqual(['pro']);
          expect(balance).toBe(findPlan('lite')!.credits + findPlan('pro')!.credits);
        } else {
          // Pro was refused while Lite was active; the cancel then ended Lite.
          expect(active).toEqual([]);
          expect(balance).toBe(findPlan('lite')!.credits);
          const [row] = await t.database.db
            .select()
            .from(checkoutSessions)
            .where(eq(checkoutSessions.id, second));
          expect(row!.status).toBe('open');
        }
        await validLedger(cy.user.id);
      }
    });

    it('pay racing the checkout cancel either pays (and the cancel is refused) or grants nothing', async () => {
      for (let round = 0; round < 4; round++) {
        const dee = await signInLocal(t.app, `dee-race-${round}-${kind}@example.com`);
        const sessionId = await createSubscriptionCheckout(dee.token, 'lite');
        // Both forms open first, as two tabs would: only the posts race. (Opened inside the
        // race, a page loaded after the cancel landed has no form, and its Pay is a 403.)
        const form = await openLocalCheckoutForm(t.app, sessionId);
        const [pay, cancel] = await Promise.all([
          submitLocalCheckout(t.app, sessionId, 'pay', { form }),
          submitLocalCheckout(t.app, sessionId, 'cancel', { form }),
        ]);
        const [row] = await t.database.db
          .select()
          .from(checkoutSessions)
          .where(eq(checkoutSessions.id, sessionId));
        const active = await activeRows(dee.user.id);
        const grants = await t.database.db
          .select()
          .from(creditTransactions)
          .where(eq(creditTransactions.userId, dee.user.id));
        if (pay.statusCode === 303) {
          expect(cancel.statusCode).toBe(409);
          expect(row!.status).toBe('paid');
          expect(active).toHaveLength(1);
          expect(grants).toHaveLength(1);
        } else {
          expect(pay.statusCode).toBe(409);
          expect(cancel.statusCode).toBe(303);
          expect(row!.status).toBe('canceled');
          expect(active).toEqual([]);
          expect(grants).toEqual([]);
        }
        await validLedger(dee.user.id);
      }
    });
  });

  describe.each(databaseKinds)('migration 0007 on %s', (kind) => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await createTestDatabase(kind);
    });
    afterAll(() => database.dispose());

    it('the unique index spells the statuses the code calls active', async () => {
      const [index] = await queryRows<{ indexdef: string }>(
        database.db,
        sql`select indexdef from pg_indexes where indexname = 'subscriptions_one_active_per_user'`,
      );
      expect(index!.indexdef).toMatch(/^CREATE UNIQUE INDEX .* \(user_id\) WHERE/);
      const statuses = [...index!.indexdef.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]);
      expect(statuses.sort()).toEqual([...ACTIVE_STATUSES].sort());
    });

    it('keeps the newest of several active subscriptions and queues older Stripe ones to cancel', async () => {
      // A database from before 0007, where nothing stopped a second active subscription.
      await database.db.execute(sql`drop index subscriptions_one_active_per_user`);
      const [ann, bob] = await database.db
        .insert(users)
        .values([
          { email: 'ann-migrate@example.com', provider: 'local' },
          { email: 'bob-migrate@example.com', provider: 'local' },
        ])
        .returning();
      const day = 86400_000;
      const sub = (
        id: string,
        userId: string,
        status: string,
        ageDays: number,
        provider = 'stripe',
      ) => ({
        id,
        provider: provider as 'stripe' | 'local',
        userId,
        planId: 'lite',
        billingCycle: 'monthly' as const,
        status,
        currentPeriodStart: new Date(),
        currentPeriodEnd: new Date(Date.now() + 30 * day),
        createdAt: new Date(Date.now() - ageDays * day),
      });
      await database.db
        .insert(subscriptions)
        .values([
          sub('sub_old_canceled', ann!.id, 'canceled', 9),
          sub('sub_oldest', ann!.id, 'active', 5),
          sub('sub_older', ann!.id, 'past_due', 3),
          sub('sub_older_local', ann!.id, 'active', 2, 'local'),
          sub('sub_newest', ann!.id, 'trialing', 1),
          sub('sub_bob', bob!.id, 'active', 4),
        ]);

      const migration = await readFile(
        new URL('../../server/db/migrations/0007_one_active_subscription.sql', import.meta.url),
        'utf8',
      );
      const cleanup = migration
        .split('--> statement-breakpoint')
        .map((part) => part.replace(/^\s*(--[^\n]*\n\s*)*/, '').trim())
        .filter((part) =>
          /^(INSERT INTO "duplicate_subscriptions"|UPDATE "subscriptions"|CREATE UNIQUE INDEX)/.test(
            part,
          ),
        );
      expect(cleanup).toHaveLength(3);
      for (const statement of cleanup) await database.db.execute(sql.raw(statement));

      const rows = await database.db.select().from(subscriptions);
      const statusOf = Object.fromEntries(rows.map((r) => [r.id, r.status]));
      expect(statusOf).toEqual({
        sub_old_canceled: 'canceled',
        sub_oldest: 'canceled',
        sub_older: 'canceled',
        sub_older_local: 'canceled',
        sub_newest: 'trialing',
        sub_bob: 'active',
      });
      const queued = await database.db.select().from(duplicateSubscriptions);
      expect(queued.map((q) => [q.subscriptionId, q.keptSubscriptionId, q.refund]).sort()).toEqual([
        ['sub_older', 'sub_newest', false],
        ['sub_oldest', 'sub_newest', false],
      ]);
      // The index is back and holds.
      await expect(
        database.db.insert(subscriptions).values(sub('sub_second', bob!.id, 'active', 0)),
      ).rejects.toThrow();
    });
  });
});
