/**
 * Keyset pages (issue 19) of the ledger, the history and the data API, on both databases: a
 * `cursor` walk returns every row once, in (time desc, id desc) order, while rows are written
 * between pages; rows sharing a millisecond (or a microsecond) are neither skipped nor
 * repeated; offset pages stay for shallow pages and a deep offset is a 400 that names cursor.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  insertCompletedVideos,
  insertLedgerRows,
  newestFirst,
  sameTime,
  type KeyedRow,
} from './list-rows.ts';

const DEEP_OFFSET =
  'Pages beyond 1,000 rows are served by cursor: pass next_cursor from the previous page as cursor.';

/** 17 rows: 10 in one millisecond (6 in one microsecond), its neighbours, and older seconds. */
function seedRows(): KeyedRow[] {
  const ms = '2020-05-01T10:00:00.123';
  return [
    ...sameTime(`${ms}456Z`, 6),
    ...['100', '200', '900', '999'].map((us) => ({ id: randomUUID(), ts: `${ms}${us}Z` })),
    { id: randomUUID(), ts: '2020-05-01T10:00:00.124000Z' },
    { id: randomUUID(), ts: '2020-05-01T10:00:00.122999Z' },
    ...[1, 2, 3, 4, 5].map((s) => ({ id: randomUUID(), ts: `2020-05-01T09:59:5${s}.000000Z` })),
  ];
}

interface Page {
  ids: string[];
  next_cursor: string | null;
  has_more: boolean;
}

interface Walk {
  /** The first page (no cursor) or the page after `cursor`. */
  fetch(cursor: string | null): Promise<Page>;
  insert(rows: KeyedRow[]): Promise<void>;
}

/**
 * Walks every page by cursor; after each page it writes a row newer than everything (must not
 * show up later), one older than everything (must show up once, at the end), and one in the
 * same microsecond as the page's last row (shows up later only if its id sorts after it).
 */
async function walkWhileWriting(walk: Walk, seeded: KeyedRow[]) {
  const known = new Map(seeded.map((r) => [r.id, r]));
  const expected = [...seeded];
  const seen: string[] = [];
  let cursor: string | null = null;
  let year = 2019;
  for (let pages = 0; pages < 50; pages++) {
    const page = await walk.fetch(cursor);
    seen.push(...page.ids);
    if (!page.has_more) {
      expect(page.next_cursor).toBeNull();
      break;
    }
    expect(page.next_cursor).toEqual(expect.any(String));
    cursor = page.next_cursor;
    const last = known.get(page.ids.at(-1)!)!;
    const tie = { id: randomUUID(), ts: last.ts };
    const older = { id: randomUUID(), ts: `${year--}-01-01T00:00:00.000001Z` };
    const newer = { id: randomUUID(), ts: '2024-01-01T00:00:00.000000Z' };
    await walk.insert([tie, older, newer]);
    for (const row of [tie, older, newer]) known.set(row.id, row);
    expected.push(older);
    if (tie.id < last.id) expected.push(tie);
  }
  expect(new Set(seen).size).toBe(seen.length);
  expect(seen).toEqual(newestFirst(expected));
}

describe.each(databaseKinds)('keyset pages on %s', (kind) => {
  let t: TestApp;
  let token: string;
  let userId: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const ann = await signInLocal(t.app, `pager-${kind}@example.com`, 'Pager');
    token = ann.token;
    userId = ann.user.id;
  });
  afterAll(() => t.close());

  const get = (url: string, query: Record<string, string | number> = {}) =>
    t.app.inject({
      url,
      query: Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])),
      headers: bearer(token),
    });

  const clearLedger = () =>
    t.database.db.execute(`delete from credit_transactions where user_id = '${userId}'`);

  describe('GET /api/credits/{userId}/transactions', () => {
    const url = () => `/api/credits/${userId}/transactions`;
    const ledgerPage = async (query: Record<string, string | number>): Promise<Page> => {
      const res = await get(url(), query);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      return { ...data, ids: data.transactions.map((r: { id: string }) => r.id) };
    };

    it('walks by cursor without skipping or repeating, ties included, while rows arrive', async () => {
      await clearLedger();
      const seeded = seedRows();
      await insertLedgerRows(t.database.db, userId, seeded);
      await walkWhileWriting(
        {
          fetch: (cursor) => ledgerPage(cursor ? { limit: 4, cursor } : { limit: 4 }),
          insert: (rows) => insertLedgerRows(t.database.db, userId, rows),
        },
        seeded,
      );
    });

    it('serves the same order by offset, with a total on offset pages only', async () => {
      await clearLedger();
      const seeded = seedRows();
      await insertLedgerRows(t.database.db, userId, seeded);
      const pages = [];
      for (const offset of [0, 5, 10, 15]) pages.push(await ledgerPage({ limit: 5, offset }));
      expect(pages.flatMap((p) => p.ids)).toEqual(newestFirst(seeded));
      expect(pages.map((p) => p.has_more)).toEqual([true, true, true, false]);
      const first = (await get(url(), { limit: 5 })).json().data;
      expect(first).toMatchObject({ total: 17, total_exact: true, limit: 5, offset: 0 });
      const byCursor = (await get(url(), { limit: 5, cursor: first.next_cursor })).json().data;
      expect(byCursor.transactions.map((r: { id: string }) => r.id)).toEqual(pages[1]!.ids);
      expect(byCursor).not.toHaveProperty('total');
      expect(byCursor).not.toHaveProperty('offset');
    });

    it('stops counting past the rows offsets reach, and says the total is a bound', async () => {
      await clearLedger();
      await t.database.db.execute(`
        insert into credit_transactions (user_id, amount, balance_after, source_type, source_id)
        select '${userId}', 1, 1, 'bulk', '${userId}:' || n from generate_series(1, 1100) n`);
      const first = (await get(url(), { limit: 10 })).json().data;
      expect(first).toMatchObject({ total: 1010, total_exact: false, has_more: true });
      const last = await get(url(), { limit: 10, offset: 1000 });
      expect(last.statusCode).toBe(200);
      expect(last.json().data.transactions).toHaveLength(10);
    });

    it.each([
      [{ offset: 1001 }, 'OFFSET_TOO_DEEP', DEEP_OFFSET],
      [{ cursor: 'not-a-cursor!' }, 'INVALID_CURSOR', /next_cursor of the previous page/],
      [
        { cursor: Buffer.from('2020-01-01T00:00:00Z|1').toString('base64url') },
        'INVALID_CURSOR',
        /next_cursor/,
      ],
      [{ cursor: 'abc', offset: 10 }, 'CURSOR_WITH_OFFSET', /either cursor or offset/],
    ])('refuses %j with a 400 that says what to send', async (query, code, message) => {
      const res = await get(url(), query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, code });
      expect(res.json().message).toMatch(message);
    });
  });

  describe('GET /api/video/history', () => {
    const historyPage = async (query: Record<string, string | number>): Promise<Page> => {
      const res = await get('/api/video/history', query);
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      return { ...data, ids: data.items.map((r: { id: string }) => r.id) };
    };
    const clear = () =>
      t.database.db.execute(`delete from video_tasks where user_id = '${userId}'`);

    it('walks by cursor in completed_at order without skipping or repeating ties', async () => {
      await clear();
      const seeded = seedRows();
      await insertCompletedVideos(t.database.db, userId, seeded);
      await walkWhileWriting(
        {
          fetch: (cursor) => historyPage(cursor ? { limit: 4, cursor } : { limit: 4 }),
          insert: (rows) => insertCompletedVideos(t.database.db, userId, rows),
        },
        seeded,
      );
    });

    it('keeps the numbered pages (spec: ?page=n&limit=10) with total and pages', async () => {
      await clear();
      const seeded = seedRows();
      await insertCompletedVideos(t.database.db, userId, seeded);
      const one = await historyPage({ page: 1, limit: 10 });
      const two = await historyPage({ page: 2, limit: 10 });
      expect([...one.ids, ...two.ids]).toEqual(newestFirst(seeded));
      expect(one).toMatchObject({ total: 17, total_exact: true, page: 1, pages: 2, limit: 10 });
      expect(two).toMatchObject({ page: 2, has_more: false, next_cursor: null });
    });

    it('refuses a page past the first 1,000 videos and a cursor sent with a page', async () => {
      const deep = await get('/api/video/history', { page: 102, limit: 10 });
      expect(deep.statusCode).toBe(400);
      expect(deep.json()).toMatchObject({ code: 'OFFSET_TOO_DEEP', message: DEEP_OFFSET });
      const both = await get('/api/video/history', { page: 2, cursor: 'abc' });
      expect(both.statusCode).toBe(400);
      expect(both.json().code).toBe('CURSOR_WITH_PAGE');
    });
  });

  describe('GET /api/db/credit_transactions', () => {
    const dbPage = async (query: Record<string, string | number>): Promise<Page> => {
      const res = await get('/api/db/credit_transactions', query);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      return { ...body, ids: body.data.map((r: { id: string }) => r.id) };
    };

    it('orders by the real created_at: microseconds within one millisecond, ids against time', async () => {
      await clearLedger();
      // Within one millisecond, ids descending while time ascends: millisecond text plus id
      // (the old ORDER BY on the to_char alias) gives the reverse of the true order.
      const rows = [
        { id: 'ffffffff-0000-4000-8000-000000000001', ts: '2021-03-01T00:00:00.999100Z' },
        { id: 'eeeeeeee-0000-4000-8000-000000000002', ts: '2021-03-01T00:00:00.999500Z' },
        { id: 'dddddddd-0000-4000-8000-000000000003', ts: '2021-03-01T00:00:00.999900Z' },
        { id: 'cccccccc-0000-4000-8000-000000000004', ts: '2021-03-01T00:00:01.000100Z' },
        { id: 'bbbbbbbb-0000-4000-8000-000000000005', ts: '2021-03-01T00:00:01.000200Z' },
      ];
      await insertLedgerRows(t.database.db, userId, rows);
      const newest = await dbPage({ columns: 'id,created_at' });
      expect(newest.ids).toEqual(rows.map((r) => r.id).reverse());
      const oldest = await dbPage({ orderBy: 'created_at', ascending: 'true' });
      expect(oldest.ids).toEqual(rows.map((r) => r.id));
      // Timestamps still answer as ISO 8601 text with milliseconds.
      const res = await get('/api/db/credit_transactions', { columns: 'created_at', limit: 1 });
      expect(res.json().data).toEqual([{ created_at: '2021-03-01T00:00:01.000Z' }]);
    });

    it('walks by cursor without skipping or repeating, in both directions', async () => {
      await clearLedger();
      const seeded = seedRows();
      await insertLedgerRows(t.database.db, userId, seeded);
      await walkWhileWriting(
        {
          fetch: (cursor) => dbPage(cursor ? { limit: 4, cursor } : { limit: 4 }),
          insert: (rows) => insertLedgerRows(t.database.db, userId, rows),
        },
        seeded,
      );
      const ascending = [];
      let cursor: string | null = null;
      do {
        const query: Record<string, string | number> = { orderBy: 'created_at', limit: 7 };
        const page: Page = await dbPage(cursor ? { ...query, cursor } : query);
        ascending.push(...page.ids);
        cursor = page.next_cursor;
      } while (cursor);
      const all = (await dbPage({ limit: 100 })).ids;
      expect(ascending).toEqual([...all].reverse());
    });

    it('counts offset pages only, and refuses a cursor in an order it cannot follow', async () => {
      const first = await get('/api/db/credit_transactions', { limit: 2 });
      expect(first.json()).toMatchObject({ count: expect.any(Number), count_exact: true });
      const next = await get('/api/db/credit_transactions', {
        limit: 2,
        cursor: first.json().next_cursor,
      });
      expect(next.json()).not.toHaveProperty('count');
      const byAmount = await get('/api/db/credit_transactions', {
        orderBy: 'amount',
        cursor: first.json().next_cursor,
      });
      expect(byAmount.statusCode).toBe(400);
      expect(byAmount.json()).toMatchObject({ code: 'CURSOR_ORDER' });
      expect(byAmount.json().message).toMatch(/follow created_at order/);
      const deep = await get('/api/db/credit_transactions', { offset: 5000 });
      expect(deep.statusCode).toBe(400);
      expect(deep.json()).toMatchObject({ code: 'OFFSET_TOO_DEEP', message: DEEP_OFFSET });
      const deepByAmount = await get('/api/db/credit_transactions', {
        orderBy: 'amount',
        offset: 5000,
      });
      expect(deepByAmount.statusCode).toBe(400);
      expect(deepByAmount.json().message).toBe(
        `${DEEP_OFFSET} Cursor pages follow created_at order: leave orderBy out (or set it to created_at).`,
      );
    });
  });
});
