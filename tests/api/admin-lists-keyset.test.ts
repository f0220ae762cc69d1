/**
 * The admin lists page by keyset cursor (issue 19): users, tasks, payments, webhook events, the
 * audit log and a customer's ledger. Rows are written straight into the tables with chosen
 * timestamps, many of them equal to the microsecond or within one millisecond, so page
 * boundaries fall inside ties: every row must come exactly once, newest first and by id within a
 * timestamp, while rows are added between pages. Offset pages carry a total counted no further
 * than the offsets reach; deep offsets, forged cursors and too-short searches are refused with a
 * message that says what to do. The overview's counts are served from a 30-second cache.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { USER_SEARCH_TOO_SHORT } from '../../shared/admin.ts';
import { bearer, createTestApp, signInAdmin, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

/**
 * Creation times, newest first: `spaced` a second apart, then six in one millisecond (a
 * microsecond apart), then six equal to the microsecond, in that same millisecond.
 */
function timestamps(spaced: number): string[] {
  const out: string[] = [];
  for (let i = spaced; i >= 1; i--)
    out.push(`2025-06-01T12:00:${String(i).padStart(2, '0')}.000000Z`);
  for (let i = 6; i >= 1; i--) out.push(`2025-06-01T12:00:00.12300${i}Z`);
  for (let i = 0; i < 6; i++) out.push('2025-06-01T12:00:00.123000Z');
  return out;
}

interface Page {
  total?: number;
  total_exact?: boolean;
  next_cursor: string | null;
  has_more: boolean;
  [rows: string]: unknown;
}

describe.each(databaseKinds)('admin lists by cursor on %s', (kind) => {
  let t: TestApp;
  let adminToken: string;
  let clock = new Date();
  let owner = '';

  beforeAll(async () => {
    t = await createTestApp(kind, { deps: { now: () => clock } });
    adminToken = await signInAdmin(t.app);
    owner = await insertUser('owner@keyset.test', '2020-01-01T00:00:00.000000Z');
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(adminToken) });

  async function insertUser(email: string, createdAt: string, id: string = randomUUID()) {
    await t.database.db.execute(
      sql`insert into users (id, email, provider, created_at)
          values (${id}, ${email}, 'local', ${createdAt}::timestamptz)`,
    );
    return id;
  }

  /**
   * Every page of `url` (its rows under `key`), `limit` at a time, following next_cursor;
   * `between` runs after each page. Checks the page fields on the way.
   */
  async function pageThrough(
    url: string,
    key: string,
    limit: number,
    between?: (page: number) => Promise<void>,
  ): Promise<Array<{ id: string }>> {
    const seen: Array<{ id: string }> = [];
    let cursor: string | null = null;
    let page = 0;
    const sep = url.includes('?') ? '&' : '?';
    do {
      const res = await get(`${url}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const data = (res.json() as { data: Page }).data;
      const rows = data[key] as Array<{ id: string }>;
      expect(rows.length).toBeLessThanOrEqual(limit);
      seen.push(...rows);
      // The first (offset) page counts; a cursor page is deep in the list and does not.
      if (cursor) expect(data.total).toBeUndefined();
      else expect(data.total).toEqual(expect.any(Number));
      expect(data.has_more).toBe(data.next_cursor !== null);
      if (data.has_more) expect(rows).toHaveLength(limit);
      cursor = data.next_cursor;
      await between?.(++page);
    } while (cursor);
    return seen;
  }

  /** The ids of `table` newest first by (`ts`, id), as the database orders them. */
  async function orderOf(table: string, ts: string, where = 'true'): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      t.database.db,
      sql.raw(`select id::text as id from ${table} where ${where} order by ${ts} desc, id desc`),
    );
    return rows.map((r) => r.id);
  }

  it('pages users once each, ties by id, while others sign up between pages', async () => {
    for (const [i, ts] of timestamps(13).entries()) await insertUser(`u${i}@keyset.test`, ts);
    const before = await orderOf('users', 'created_at', "provider <> 'admin'");
    let behind = '';
    const seen = await pageThrough('/api/admin/users', 'users', 4, async (page) => {
      // Newer than every page: above the cursor, so not in this walk.
      await insertUser(`new${page}@keyset.test`, new Date().toISOString());
      // Older than every row: behind the cursor, so the walk reaches it once.
      if (page === 1) behind = await insertUser('old@keyset.test', '2000-01-01T00:00:00.000000Z');
    });
    expect(seen.map((u) => u.id)).toEqual([...before, behind]);
    // The six equal timestamps come by id, largest first (the cursor splits them by id).
    const equal = await orderOf('users', 'created_at', "created_at = '2025-06-01T12:00:00.123Z'");
    expect(equal).toHaveLength(6);
    const shown = seen.map((u) => u.id).filter((id) => equal.includes(id));
    expect(shown).toEqual([...equal].sort().reverse());
  });

  it('pages a search by part of the email, and refuses one too short to search', async () => {
    const short = await get('/api/admin/users?q=%20U1%20');
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'SEARCH_TOO_SHORT',
      message: USER_SEARCH_TOO_SHORT,
    });
    const found = await pageThrough('/api/admin/users?q=KEYSET.test', 'users', 7);
    expect(found.length).toBeGreaterThan(25);
    expect(found.map((u) => u.id)).toEqual(
      await orderOf('users', 'created_at', "email like '%keyset.test'"),
    );
    expect(await pageThrough('/api/admin/users?q=u1x', 'users', 3)).toEqual([]);
    // The search's total comes with its first page, and with any shallow page after it, even
    // one past the last match.
    const matching = (await orderOf('users', 'created_at', "email like '%keyset.test'")).length;
    for (const offset of [0, 7, 700]) {
      const page = (await get(`/api/admin/users?q=keyset.test&limit=7&offset=${offset}`)).json()
        .data as { total: number; total_exact: boolean };
      expect(page).toMatchObject({ total: matching, total_exact: true });
    }
    // Blank is no search at all.
    expect((await get('/api/admin/users?q=%20%20')).statusCode).toBe(200);
  });

  it('pages tasks, all and of one status, with ties', async () => {
    const stamps = timestamps(9);
    for (const [i, ts] of stamps.entries()) {
      await t.database.db.execute(
        sql`insert into video_tasks (id, user_id, model, mode, prompt, provider, status,
                                     deadline_at, created_at, credits_charged)
            values (${randomUUID()}, ${owner}, 'veo3', 'text', 'A tie', 'local',
                    ${i % 3 === 0 ? 'failed' : 'completed'}, now(), ${ts}::timestamptz, 17)`,
      );
    }
    const all = await pageThrough('/api/admin/tasks', 'tasks', 5);
    expect(all.map((r) => r.id)).toEqual(await orderOf('video_tasks', 'created_at'));
    const failed = await pageThrough('/api/admin/tasks?status=failed', 'tasks', 2);
    expect(failed.map((r) => r.id)).toEqual(
      await orderOf('video_tasks', 'created_at', "status = 'failed'"),
    );
    expect(failed).toHaveLength(stamps.filter((_, i) => i % 3 === 0).length);
  });

  it('pages webhook events and payments, whose ids are text', async () => {
    for (const [i, ts] of timestamps(5).entries()) {
      await t.database.db.execute(
        sql`insert into webhook_events (id, provider, type, handled, payload, received_at)
            values (${`evt_${i}_${randomUUID().slice(0, 8)}`}, 'stripe', 'invoice.paid', true,
                    '{}'::jsonb, ${ts}::timestamptz)`,
      );
      await t.database.db.execute(
        sql`insert into checkout_sessions (id, provider, user_id, kind, item_id, amount_cents,
                                           currency, credits, success_url, cancel_url, created_at)
            values (${`cs_local_${i}_${randomUUID().slice(0, 8)}`}, 'local', ${owner}, 'credits',
                    'starter', 900, 'usd', 100, 'http://localhost/ok', 'http://localhost/no',
                    ${ts}::timestamptz)`,
      );
    }
    const events = await pageThrough('/api/admin/webhooks', 'events', 4);
    expect(events.map((e) => e.id)).toEqual(await orderOf('webhook_events', 'received_at'));
    const payments = await pageThrough('/api/admin/payments', 'payments', 4);
    expect(payments.map((p) => p.id)).toEqual(await orderOf('checkout_sessions', 'created_at'));
  });

  it("pages the audit log and a customer's ledger", async () => {
    for (const [i, ts] of timestamps(4).entries()) {
      await t.database.db.execute(
        sql`insert into admin_actions (admin_username, action, details, created_at)
            values ('ops', 'credits.adjust', ${JSON.stringify({ i })}::jsonb, ${ts}::timestamptz)`,
      );
    }
    const actions = await pageThrough('/api/admin/actions', 'actions', 3);
    expect(actions.map((a) => a.id)).toEqual(await orderOf('admin_actions', 'created_at'));

    for (const [i, ts] of timestamps(3).entries()) {
      await t.database.db.execute(
        sql`insert into credit_transactions (user_id, amount, balance_after, source_type,
                                             source_id, created_at)
            values (${owner}, 1, ${i + 1}, 'gift', ${`keyset-${i}`}, ${ts}::timestamptz)`,
      );
    }
    const ledger = await pageThrough(`/api/admin/users/${owner}/transactions`, 'transactions', 4);
    expect(ledger.map((r) => r.id)).toEqual(
      await orderOf('credit_transactions', 'created_at', `user_id = '${owner}'`),
    );
  });

  it('counts no further than offsets reach, and sends deeper pages to the cursor', async () => {
    await t.database.db.execute(
      sql`insert into webhook_events (id, provider, type, handled, payload, received_at)
          select 'evt_bulk_' || n, 'stripe', 'invoice.paid', true, '{}'::jsonb,
                 now() - n * interval '1 second'
          from generate_series(1, 1100) n`,
    );
    const first = (await get('/api/admin/webhooks?limit=20')).json().data as Page;
    expect(first).toMatchObject({ total: 1020, total_exact: false, has_more: true });
    const shallow = await get('/api/admin/webhooks?limit=20&offset=1000');
    expect(shallow.statusCode).toBe(200);
    const deep = await get('/api/admin/webhooks?limit=20&offset=1001');
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({
      code: 'OFFSET_TOO_DEEP',
      message:
        'Pages beyond 1,000 rows are served by cursor: pass next_cursor from the previous page as cursor.',
    });
    // An exact count below the bound.
    const actions = (await get('/api/admin/actions')).json().data as Page;
    expect(actions).toMatchObject({ total: timestamps(4).length, total_exact: true });
  });

  it.each([
    ['/api/admin/users?cursor=not-a-cursor', 'INVALID_CURSOR'],
    ['/api/admin/tasks?cursor=%21%21', 'INVALID_CURSOR'],
    [
      `/api/admin/actions?cursor=${Buffer.from('2025-13-01T00:00:00Z|x').toString('base64url')}`,
      'INVALID_CURSOR',
    ],
    ['/api/admin/webhooks?offset=20&cursor=abc', 'CURSOR_WITH_OFFSET'],
  ])('refuses %s with a 400 (%s)', async (url, code) => {
    const res = await get(url);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code });
  });

  it('serves the overview counts for 30 s, and counts now on Refresh (fresh=true)', async () => {
    const overview = async (query = '') =>
      (await get(`/api/admin/overview${query}`)).json().data as {
        users: number;
        countedAt: string;
      };
    const before = await overview();
    expect(before.countedAt).toBe(clock.toISOString());
    await insertUser('late@keyset.test', new Date().toISOString());
    clock = new Date(clock.getTime() + 29_000);
    expect(await overview()).toMatchObject({ users: before.users, countedAt: before.countedAt });
    const refreshed = await overview('?fresh=true');
    expect(refreshed).toMatchObject({ users: before.users + 1, countedAt: clock.toISOString() });
    await insertUser('later@keyset.test', new Date().toISOString());
    clock = new Date(clock.getTime() + 31_000);
    expect(await overview()).toMatchObject({ users: before.users + 2 });
  });

  it("keeps the providers card's 24-hour figures with the counts, and reads them now on Refresh", async () => {
    const tasks24h = async (query = '') => {
      const data = (await get(`/api/admin/overview${query}`)).json().data as {
        videoProviders: Array<{ provider: string; tasks24h: number }>;
      };
      return data.videoProviders.find((p) => p.provider === 'local')?.tasks24h ?? 0;
    };
    const before = await tasks24h('?fresh=true');
    await t.database.db.execute(
      sql`insert into video_tasks (id, user_id, model, mode, prompt, provider, status,
                                   submitted_at, deadline_at, created_at, credits_charged)
          values (${randomUUID()}, ${owner}, 'veo3', 'text', 'A new one', 'local', 'completed',
                  now(), now(), now(), 17)`,
    );
    expect(await tasks24h()).toBe(before);
    expect(await tasks24h('?fresh=true')).toBe(before + 1);
  });
});
