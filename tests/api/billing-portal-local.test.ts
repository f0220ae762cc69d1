/**
 * Issue 37, item 2, in local mode: "Manage billing" leads to our own billing page, which lists the
 * user's payments (what, amount, discount, date, a receipt link when a receipt exists), newest
 * first, keyset-paged; and on PostgreSQL each source of the list is read through its index.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DbOrTx } from '../../server/core/db.ts';
import { paymentsQuery } from '../../server/domains/billing/payment-history.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, SITE_ORIGIN, submitLocalCheckout } from '../helpers/billing.ts';
import { createTestDatabase, databaseKinds, type TestDatabase } from '../helpers/database.ts';

interface Payment {
  id: string;
  type: string;
  item_id: string;
  amount_cents: number;
  discount_cents: number;
  paid_at: string;
  receipt_number: string | null;
  receipt_url: string | null;
}

describe.each(databaseKinds)('the local billing page on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const buy = async (token: string, payload: object) => {
    const res = await requestCheckout(t.app, token, payload);
    expect(res.statusCode, res.body).toBe(200);
    const { sessionId } = res.json() as { sessionId: string };
    expect((await submitLocalCheckout(t.app, sessionId)).statusCode).toBe(303);
    return sessionId;
  };
  const page = async (token: string, query = '') => {
    const res = await t.app.inject({
      url: `/api/account/payments${query}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as {
      payments: Payment[];
      next_cursor: string | null;
      has_more: boolean;
    };
  };

  it('answers the local billing page as the portal, in the language asked, back to the page given', async () => {
    const ann = await signInLocal(t.app, 'ann-local-portal@example.com');
    const en = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/portal',
      headers: bearer(ann.token),
      payload: { return_url: '/pricing' },
    });
    expect(en.statusCode, en.body).toBe(200);
    expect(en.json().data).toEqual({
      url: `${SITE_ORIGIN}/account/billing?return=%2Fpricing`,
      provider: 'local',
    });
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/portal',
      headers: {
        ...bearer(ann.token),
        'accept-language': 'zh-CN',
        referer: `${SITE_ORIGIN}/zh/account`,
      },
    });
    expect(zh.json().data.url).toBe(`${SITE_ORIGIN}/zh/account/billing?return=%2Fzh%2Faccount`);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/portal',
      headers: bearer(ann.token),
      payload: { return_url: 'https://evil.example/' },
    });
    expect(bad.statusCode).toBe(400);
    const signedOut = await t.app.inject({ url: '/api/account/payments' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('refuses an eleventh portal request within a minute with 429', async () => {
    const kim = await signInLocal(t.app, 'kim-local-portal-limit@example.com');
    const open = () =>
      t.app.inject({ method: 'POST', url: '/api/stripe/portal', headers: bearer(kim.token) });
    for (let i = 0; i < 10; i++) expect((await open()).statusCode).toBe(200);
    const refused = await open();
    expect(refused.statusCode).toBe(429);
    // Another user is not held back by it.
    const lee = await signInLocal(t.app, 'lee-local-portal-limit@example.com');
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/stripe/portal',
      headers: bearer(lee.token),
    });
    expect(other.statusCode).toBe(200);
  });

  it("lists the user's paid checkouts newest first, pages by cursor, and links receipts that exist", async () => {
    const bob = await signInLocal(t.app, 'bob-local-list@example.com');
    const other = await signInLocal(t.app, 'other-local-list@example.com');
    const summary = async () =>
      (await t.app.inject({ url: '/api/account/billing', headers: bearer(bob.token) })).json().data;
    expect(await summary()).toEqual({ has_billing_history: false, provider: 'local' });
    expect((await page(bob.token)).payments).toEqual([]);

    const starter = await buy(bob.token, { type: 'credits', package_id: 'starter' });
    const plan = await buy(bob.token, {
      type: 'subscription',
      plan_id: 'pro',
      billing_cycle: 'yearly',
    });
    const basic = await buy(bob.token, { type: 'credits', package_id: 'basic' });
    await buy(other.token, { type: 'credits', package_id: 'standard' });
    // An unpaid checkout is no payment.
    await requestCheckout(t.app, bob.token, { type: 'credits', package_id: 'standard' });
    expect(await summary()).toEqual({ has_billing_history: true, provider: 'local' });

    // A receipt for the plan's payment (made here whether or not the receipts outbox made one).
    await t.database.db.execute(
      sql`insert into receipt_emails (user_id, kind, source_key, receipt_number, locale, payload)
          values (${bob.user.id}, 'payment', ${`checkout:${plan}`},
            'R-' || nextval('receipt_number_seq'), 'en', '{}'::jsonb)
          on conflict (source_key) do nothing`,
    );
    const receipts = new Map(
      (
        await queryRows<{ source_key: string; receipt_number: string }>(
          t.database.db,
          sql`select source_key, receipt_number from receipt_emails where user_id = ${bob.user.id}`,
        )
      ).map((r) => [r.source_key, r.receipt_number]),
    );

    const all = await page(bob.token);
    expect(all.has_more).toBe(false);
    expect(all.payments.map((p) => p.id)).toEqual([
      `checkout:${basic}`,
      `checkout:${plan}`,
      `checkout:${starter}`,
    ]);
    expect(all.payments[1]).toMatchObject({
      type: 'subscription',
      item_id: 'pro',
      billing_cycle: 'yearly',
      amount_cents: 47_900,
      discount_cents: 0,
      currency: 'usd',
    });
    expect(all.payments[2]).toMatchObject({
      type: 'credits',
      item_id: 'starter',
      amount_cents: 1990,
    });
    for (const payment of all.payments) {
      const number = receipts.get(payment.id) ?? null;
      expect(payment.receipt_number).toBe(number);
      expect(payment.receipt_url).toBe(number ? `/api/account/receipts/${number}` : null);
    }
    expect(all.payments[1]!.receipt_url).toMatch(/^\/api\/account\/receipts\/R-\d+$/);

    const first = await page(bob.token, '?limit=2');
    expect(first.payments.map((p) => p.id)).toEqual(all.payments.slice(0, 2).map((p) => p.id));
    expect(first.has_more).toBe(true);
    const second = await page(bob.token, `?limit=2&cursor=${first.next_cursor}`);
    expect(second.payments.map((p) => p.id)).toEqual([`checkout:${starter}`]);
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
  });

  it('lists a local renewal with its plan price and receipt, after the checkout that started it', async () => {
    const eve = await signInLocal(t.app, 'eve-local-renewal@example.com');
    const started = await buy(eve.token, {
      type: 'subscription',
      plan_id: 'lite',
      billing_cycle: 'monthly',
    });
    await t.app.billing.runScheduledGrants(new Date(Date.now() + 32 * 86_400_000));
    const { payments } = await page(eve.token);
    expect(payments.map((p) => p.id.split(':')[0])).toEqual(['renewal', 'checkout']);
    expect(payments[1]!.id).toBe(`checkout:${started}`);
    expect(payments[0]).toMatchObject({
      type: 'subscription',
      item_id: 'lite',
      billing_cycle: 'monthly',
      amount_cents: 2990,
      receipt_url: expect.stringMatching(/^\/api\/account\/receipts\/R-\d+$/),
    });
    const one = await page(eve.token, '?limit=1');
    const rest = await page(eve.token, `?limit=1&cursor=${one.next_cursor}`);
    expect([...one.payments, ...rest.payments].map((p) => p.id)).toEqual(payments.map((p) => p.id));
  });

  it('shows the discount a checkout was given', async () => {
    const cat = await signInLocal(t.app, 'cat-local-discount@example.com');
    const id = await buy(cat.token, { type: 'credits', package_id: 'basic' });
    await t.database.db.execute(
      sql`update checkout_sessions set discount_cents = 500, amount_cents = amount_cents - 500
          where id = ${id}`,
    );
    const [payment] = (await page(cat.token)).payments;
    expect(payment).toMatchObject({ amount_cents: 4490, discount_cents: 500 });
  });

  it.each(['nonsense', Buffer.from('2026-01-01T00:00:00Z|refund:x').toString('base64url')])(
    'refuses the cursor %s with 400',
    async (cursor) => {
      const dan = await signInLocal(t.app, 'dan-local-cursor@example.com');
      const res = await t.app.inject({
        url: `/api/account/payments?cursor=${cursor}`,
        headers: bearer(dan.token),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_CURSOR' });
    },
  );
});

/** A node of an EXPLAIN (FORMAT JSON) plan. */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

async function planOf(db: DbOrTx, query: ReturnType<typeof sql>): Promise<PlanNode[]> {
  const rows = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) ${query}`);
  const raw = rows[0]!['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  return nodesOf(doc[0]!.Plan);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'the payments list on PostgreSQL with 40 users of 200 payments each',
  () => {
    let database: TestDatabase;
    let userId = '';
    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      const db = database.db;
      await db.execute(
        sql`insert into users (email, provider)
            select 'payer' || g || '@example.com', 'local' from generate_series(1, 40) g`,
      );
      await db.execute(sql`
        insert into checkout_sessions (id, provider, user_id, kind, item_id, amount_cents, currency,
            credits, status, success_url, cancel_url, created_at, completed_at)
          select 'cs_' || u.id || '_' || g, 'local', u.id, 'credits', 'starter', 1990, 'usd', 330,
            case when g % 5 = 0 then 'expired' else 'paid' end, '/', '/',
            now() - g * interval '1 hour', now() - g * interval '1 hour'
          from users u, generate_series(1, 150) g`);
      await db.execute(sql`
        insert into subscriptions (id, provider, user_id, plan_id, billing_cycle, status,
            current_period_start, current_period_end)
          select 'sub_' || u.id, 'stripe', u.id, 'lite', 'monthly', 'canceled', now(), now()
          from users u`);
      await db.execute(sql`
        insert into invoice_payments (invoice_id, provider, user_id, subscription_id, amount_cents,
            period_start, credits_per_month, created_at)
          select 'in_' || u.id || '_' || g, 'stripe', u.id, 'sub_' || u.id, 2990,
            now() - g * interval '30 minutes', 590, now() - g * interval '30 minutes'
          from users u, generate_series(1, 50) g`);
      await db.execute(sql`
        insert into receipt_emails (user_id, kind, source_key, receipt_number, locale, payload,
            created_at)
          select u.id, case when g % 2 = 0 then 'renewal' else 'payment' end,
            'invoice:local:sub_' || u.id || ':' || g, 'R-' || nextval('receipt_number_seq'), 'en',
            '{}'::jsonb, now() - g * interval '45 minutes'
          from users u, generate_series(1, 60) g`);
      await db.execute(sql`analyze`);
      const [row] = await queryRows<{ id: string }>(db, sql`select id from users limit 1`);
      userId = row!.id;
    });
    afterAll(() => database.dispose());

    it('reads each source through its index in order, first page and cursor page alike', async () => {
      const { listPayments } = await import('../../server/domains/billing/payment-history.ts');
      const first = await listPayments(database.db, userId, { limit: 20 });
      expect(first.payments).toHaveLength(20);
      for (const query of [
        paymentsQuery(userId, null, 21),
        paymentsQuery(userId, first.next_cursor, 21),
      ]) {
        const plan = await planOf(database.db, query);
        const indexes = plan.map((n) => n['Index Name']).filter(Boolean);
        expect(indexes).toContain('checkout_sessions_user_paid_idx');
        expect(indexes).toContain('invoice_payments_user_created_idx');
        expect(indexes).toContain('receipt_emails_user_idx');
        const scans = plan.filter(
          (n) =>
            n['Node Type'] === 'Seq Scan' &&
            ['checkout_sessions', 'invoice_payments', 'receipt_emails'].includes(
              n['Relation Name'] ?? '',
            ),
        );
        expect(scans, plan.map((n) => n['Node Type']).join(' > ')).toEqual([]);
      }
      // The pages meet without a gap or a repeat.
      const second = await listPayments(database.db, userId, {
        limit: 20,
        cursor: first.next_cursor!,
      });
      const all = await listPayments(database.db, userId, { limit: 40 });
      expect([...first.payments, ...second.payments].map((p) => p.id)).toEqual(
        all.payments.map((p) => p.id),
      );
    });
  },
);
