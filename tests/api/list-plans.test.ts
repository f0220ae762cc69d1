/**
 * Plan tests (issue 19) on PostgreSQL: every list query of the ledger, the history and the data
 * API, explained (FORMAT JSON) on seeded tables of about 20k rows after VACUUM ANALYZE, reads its
 * named index and never sorts or scans the table. The SQL is the repositories' own, with the
 * parameters they bind. PGlite runs the same SQL (the paging tests); plans are PostgreSQL's.
 */
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CURSOR_TIMESTAMP_FORMAT, type CursorKey } from '../../server/core/cursor.ts';
import { queryRows } from '../../server/core/db.ts';
import * as ledger from '../../server/domains/credits/repository.ts';
import * as dataApi from '../../server/domains/data-api/repository.ts';
import { policyFor } from '../../server/domains/data-api/policies.ts';
import * as video from '../../server/domains/video/repository.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

const HEAVY_LEDGER = 5000;
const HEAVY_TASKS = 5000;

describe.skipIf(!process.env.TEST_DATABASE_URL)('list query plans on postgres', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let heavy: string;
  const dialect = new PgDialect();

  /** The plan's nodes for a query as the repository sends it (text and bound parameters). */
  async function planOf(query: { sql: string; params: unknown[] }): Promise<PlanNode[]> {
    const result = await client.query(`explain (format json) ${query.sql}`, query.params);
    const plan = (result.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0];
    return flatten(plan.Plan);
  }
  const planOfSql = (query: SQL) => planOf(dialect.sqlToQuery(query));

  function expectServedBy(nodes: PlanNode[], index: string) {
    const scans = nodes.filter((n) => /^Index (Only )?Scan/.test(n['Node Type']));
    expect(scans.map((n) => n['Index Name'])).toContain(index);
    expect(nodes.filter((n) => /Sort/.test(n['Node Type'])).map((n) => n['Node Type'])).toEqual([]);
    expect(
      nodes.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']),
    ).toEqual([]);
  }

  /** The sort key of the heavy user's row `offset` rows in, as a cursor would carry it. */
  async function keyAt(table: 'credit_transactions' | 'video_tasks', offset: number) {
    const column = table === 'video_tasks' ? 'completed_at' : 'created_at';
    const filter = table === 'video_tasks' ? sql`and status = 'completed'` : sql``;
    const rows = await queryRows<CursorKey>(
      database.db,
      sql`select to_char(${sql.identifier(column)} at time zone 'UTC', ${CURSOR_TIMESTAMP_FORMAT}) as ts,
                 id::text as id
          from ${sql.identifier(table)} where user_id = ${heavy} ${filter}
            and ${sql.identifier(column)} is not null
          order by ${sql.identifier(column)} desc, id desc offset ${offset} limit 1`,
    );
    return rows[0]!;
  }

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const db = database.db;
    await db.execute(sql`insert into users (email, provider)
      select 'plan-' || n || '@example.com', 'local' from generate_series(1, 100) n`);
    heavy = (
      await queryRows<{ id: string }>(db, sql`select id from users order by email limit 1`)
    )[0]!.id;
    // 15,000 rows spread over 100 users, 5,000 more for one; a few share a timestamp.
    await db.execute(sql`insert into credit_transactions
        (user_id, amount, balance_after, source_type, source_id, created_at)
      select u.id, 1, 1, 'seed', u.id || ':' || n,
             timestamptz '2024-01-01' + n * interval '1 minute' + (n % 7) * interval '1 microsecond'
      from users u cross join generate_series(1, 150) n`);
    await db.execute(sql`insert into credit_transactions
        (user_id, amount, balance_after, source_type, source_id, created_at)
      select ${heavy}::uuid, 1, 1, 'heavy', n::text,
             timestamptz '2023-01-01' + (n / 3) * interval '1 second'
      from generate_series(1, ${HEAVY_LEDGER}) n`);
    // 15,000 tasks over 100 users and 5,000 for one: four in five completed with a result.
    await db.execute(sql`insert into video_tasks
        (id, user_id, status, progress, model, mode, prompt, provider, result_url,
         deadline_at, created_at, completed_at, credits_charged)
      select gen_random_uuid(), u.id,
             case when n % 5 = 0 then 'failed' else 'completed' end, 100, 'veo3', 'text', 'seed',
             'local', case when n % 5 = 0 then null else '/media/x.mp4' end, now(),
             timestamptz '2024-01-01' + n * interval '1 minute',
             timestamptz '2024-01-01' + n * interval '1 minute' + interval '90 seconds', 17
      from users u cross join generate_series(1, 150) n`);
    await db.execute(sql`insert into video_tasks
        (id, user_id, status, progress, model, mode, prompt, provider, result_url,
         deadline_at, created_at, completed_at, credits_charged)
      select gen_random_uuid(), ${heavy}::uuid,
             case when n % 5 = 0 then 'failed' else 'completed' end, 100, 'veo3', 'text', 'seed',
             'local', case when n % 5 = 0 then null else '/media/x.mp4' end, now(),
             timestamptz '2023-01-01' + (n / 2) * interval '1 second',
             timestamptz '2023-01-01' + (n / 2) * interval '1 second', 17
      from generate_series(1, ${HEAVY_TASKS}) n`);
    client = new pg.Client({ connectionString: database.url! });
    await client.connect();
    await client.query('vacuum analyze users, credit_transactions, video_tasks');
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await database?.dispose();
  });

  describe('ledger: credit_transactions_user_created_id_idx', () => {
    const index = 'credit_transactions_user_created_id_idx';

    it.each([0, 990])('offset page at %i', async (offset) => {
      const query = ledger.transactionsQuery(database.db, heavy, 11, { offset }).toSQL();
      expectServedBy(await planOf(query), index);
    });

    it('cursor page deep in the ledger', async () => {
      const after = await keyAt('credit_transactions', 4000);
      const query = ledger.transactionsQuery(database.db, heavy, 11, { after }).toSQL();
      expectServedBy(await planOf(query), index);
    });

    it('bounded count', async () => {
      expectServedBy(await planOfSql(ledger.countTransactionsSql(heavy, 1011)), index);
    });
  });

  describe('history: video_tasks_history_idx', () => {
    const index = 'video_tasks_history_idx';

    it.each([0, 990])('numbered page at offset %i', async (offset) => {
      const query = video.completedPageQuery(database.db, heavy, 11, { offset }).toSQL();
      expectServedBy(await planOf(query), index);
    });

    it('cursor page deep in the history', async () => {
      const after = await keyAt('video_tasks', 3000);
      const query = video.completedPageQuery(database.db, heavy, 11, { after }).toSQL();
      expectServedBy(await planOf(query), index);
    });

    it('bounded count', async () => {
      const query = video.countCompletedQuery(database.db, heavy, 1011).toSQL();
      expectServedBy(await planOf(query), index);
    });
  });

  describe('data API: GET /api/db/credit_transactions (own rows)', () => {
    const index = 'credit_transactions_user_created_id_idx';
    const policy = policyFor('credit_transactions')!;
    const scope = (): dataApi.Scope => ({
      table: 'credit_transactions',
      policy,
      rows: 'own',
      userId: heavy,
      conditions: [],
    });
    const page = (over: Partial<dataApi.SelectPage> = {}): dataApi.SelectPage => ({
      columns: Object.keys(policy.columns),
      orderBy: 'created_at',
      ascending: false,
      limit: 21,
      offset: 0,
      withKeys: true,
      ...over,
    });

    it.each([
      ['newest first', {}],
      ['oldest first', { ascending: true }],
      ['at offset 980', { offset: 980 }],
    ])('%s, ordered by the real column', async (_name, over) => {
      expectServedBy(await planOfSql(dataApi.selectRowsSql(scope(), page(over))), index);
    });

    it('cursor page', async () => {
      const after = await keyAt('credit_transactions', 4000);
      expectServedBy(await planOfSql(dataApi.selectRowsSql(scope(), page({ after }))), index);
    });

    it('bounded count', async () => {
      expectServedBy(await planOfSql(dataApi.countRowsSql(scope(), 1021)), index);
    });
  });
});
