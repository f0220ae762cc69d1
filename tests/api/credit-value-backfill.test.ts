/**
 * Migration 0019's backfill (issue 37, item 5): customers who bought before the release get the
 * value of a credit the code would have kept for them, so the margin view does not price their
 * next videos at nothing. Hand-computed figures: a refunded pack and an administrator's grant, a
 * yearly plan renewed once and half refunded, a monthly plan renewed once (its first invoice is the
 * checkout's payment, counted once), a payment in euros and an unpaid checkout (nothing).
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { allDatabaseKinds, createTestDatabase } from '../helpers/database.ts';

const MIGRATION = new URL('../../server/db/migrations/0019_money_part_three.sql', import.meta.url);

const user = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

describe.each(allDatabaseKinds)('migration 0019 backfills the value of a credit on %s', (kind) => {
  it('from paid checkouts, renewals, refunds and administrators’ grants', async () => {
    const database = await createTestDatabase(kind);
    const { db } = database;
    try {
      for (const n of [1, 2, 3, 4]) {
        await db.execute(
          sql`insert into users (id, email, provider) values (${user(n)}, ${`u${n}@example.com`}, 'local')`,
        );
      }
      const checkout = (
        id: string,
        n: number,
        row: { kind: string; cycle: string | null; cents: number; credits: number },
        extra: { status?: string; currency?: string; refunded?: number; unrecovered?: number } = {},
      ) =>
        db.execute(sql`insert into checkout_sessions
            (id, provider, user_id, kind, item_id, billing_cycle, amount_cents, currency, credits,
             status, success_url, cancel_url, credits_refunded, credits_unrecovered)
          values (${id}, 'stripe', ${user(n)}, ${row.kind}, 'x', ${row.cycle}, ${row.cents},
             ${extra.currency ?? 'usd'}, ${row.credits}, ${extra.status ?? 'paid'}, '/', '/',
             ${extra.refunded ?? 0}, ${extra.unrecovered ?? 0})`);
      const subscription = (id: string, n: number, cycle: string) =>
        db.execute(sql`insert into subscriptions
            (id, provider, user_id, plan_id, billing_cycle, status, current_period_start, current_period_end)
          values (${id}, 'stripe', ${user(n)}, 'pro', ${cycle}, 'active', now(), now())`);
      const invoice = (
        id: string,
        n: number,
        sub: string,
        start: string,
        cents: number,
        perMonth: number,
        refunded = 0,
      ) =>
        db.execute(sql`insert into invoice_payments
            (invoice_id, provider, user_id, subscription_id, amount_cents, period_start,
             credits_per_month, refunded_cents)
          values (${id}, 'stripe', ${user(n)}, ${sub}, ${cents}, ${start}::timestamptz, ${perMonth}, ${refunded})`);

      // 1: a $19.90 pack of 330 credits, 110 of them taken back by a refund; an admin's 50.
      await checkout(
        'cs_1',
        1,
        { kind: 'credits', cycle: null, cents: 1990, credits: 330 },
        {
          refunded: 100,
          unrecovered: 10,
        },
      );
      await db.execute(sql`insert into credit_transactions
          (user_id, amount, balance_after, source_type, source_id)
        values (${user(1)}, 50, 50, 'admin_adjustment', 'grant-1')`);
      // 2: a $959 yearly plan (3,370 a month), renewed a year later and half of that refunded.
      await checkout('cs_2', 2, {
        kind: 'subscription',
        cycle: 'yearly',
        cents: 95900,
        credits: 3370,
      });
      await subscription('sub_2', 2, 'yearly');
      await invoice('in_2a', 2, 'sub_2', '2025-01-01', 95900, 3370);
      await invoice('in_2b', 2, 'sub_2', '2026-01-01', 95900, 3370, 47950);
      // 3: a $29 monthly plan (1,340 a month), renewed once.
      await checkout('cs_3', 3, {
        kind: 'subscription',
        cycle: 'monthly',
        cents: 2900,
        credits: 1340,
      });
      await subscription('sub_3', 3, 'monthly');
      await invoice('in_3a', 3, 'sub_3', '2026-10-01', 2900, 1340);
      await invoice('in_3b', 3, 'sub_3', '2026-11-01', 2900, 1340);
      // 4: euros, and a checkout never paid: nothing to count.
      await checkout(
        'cs_4',
        4,
        { kind: 'credits', cycle: null, cents: 1990, credits: 330 },
        {
          currency: 'eur',
        },
      );
      await checkout(
        'cs_5',
        4,
        { kind: 'credits', cycle: null, cents: 1990, credits: 330 },
        {
          status: 'open',
        },
      );

      const statements = (await readFile(MIGRATION, 'utf8')).split('--> statement-breakpoint');
      const backfill = statements.find((s) => s.includes('INSERT INTO user_credit_value'))!;
      await db.execute(sql`delete from user_credit_value`);
      await db.execute(sql.raw(backfill));

      const rows = await queryRows<{
        user_id: string;
        paid_micros: string;
        credits_granted: string;
      }>(
        db,
        sql`select user_id, paid_micros, credits_granted from user_credit_value order by user_id`,
      );
      expect(
        rows.map((r) => [r.user_id, Number(r.paid_micros), Number(r.credits_granted)]),
      ).toEqual([
        // 19.90 − 19.90 × 110 / 330; 330 − 110 + 50.
        [user(1), 19_900_000 - 6_633_333, 270],
        // 959 + (959 − 479.50); 40,440 + 40,440 − 20,220.
        [user(2), 1_438_500_000, 60_660],
        // 29 + 29 (the first invoice is the checkout's payment); 1,340 × 2.
        [user(3), 58_000_000, 2_680],
      ]);
    } finally {
      await database.dispose();
    }
  });
});
