/**
 * Migration 0011 (issue 19): every list the product serves has an index in its order. On both
 * databases the indexes exist with their columns (and the two they replace are gone), and pg_trgm
 * is loaded and answers the email search. On PostgreSQL, with ~20,000 rows in each table and
 * ANALYZE run, the EXPLAIN of each admin list statement (the very SQL the repository runs, first
 * page and cursor page) reads its index and sorts nothing, and the ledger and history orders are
 * served by theirs.
 */
import { sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type DbOrTx } from '../../server/core/db.ts';
import {
  actionListSource,
  paymentListSource,
  taskListSource,
  userListSource,
  webhookListSource,
} from '../../server/domains/admin/list-repository.ts';
import { pageQueries, type ListSource, type PageStart } from '../../server/domains/admin/paging.ts';
import { createTestDatabase, allDatabaseKinds, type TestDatabase } from '../helpers/database.ts';

/** Each new index and the columns (or expression) its definition must name. */
const INDEXES: Record<string, { table: string; definition: RegExp }> = {
  users_created_id_idx: { table: 'users', definition: /btree \(created_at, id\)/ },
  users_email_trgm_idx: { table: 'users', definition: /gin \(email gin_trgm_ops\)/ },
  credit_transactions_user_created_id_idx: {
    table: 'credit_transactions',
    definition: /btree \(user_id, created_at, id\)/,
  },
  video_tasks_created_id_idx: { table: 'video_tasks', definition: /btree \(created_at, id\)/ },
  video_tasks_history_idx: {
    table: 'video_tasks',
    definition:
      /btree \(user_id, completed_at, id\) WHERE \(\(status = 'completed'::text\) AND \(result_url IS NOT NULL\)\)/,
  },
  admin_actions_created_id_idx: { table: 'admin_actions', definition: /btree \(created_at, id\)/ },
  checkout_sessions_created_id_idx: {
    table: 'checkout_sessions',
    definition: /btree \(created_at, id\)/,
  },
  webhook_events_received_id_idx: {
    table: 'webhook_events',
    definition: /btree \(received_at, id\)/,
  },
};
const REPLACED = [
  'credit_transactions_user_created_idx',
  'video_tasks_created_idx',
  'admin_actions_created_idx',
];

/** A node of an EXPLAIN (FORMAT JSON) plan. */
interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

async function planOf(db: DbOrTx, query: SQL): Promise<PlanNode[]> {
  const rows = await queryRows<{ 'QUERY PLAN': unknown }>(db, sql`explain (format json) ${query}`);
  const raw = rows[0]!['QUERY PLAN'];
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: PlanNode }>;
  return nodesOf(doc[0]!.Plan);
}

const describePlan = (nodes: PlanNode[]) =>
  nodes.map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`).join(' > ');

describe.each(allDatabaseKinds)('list indexes on %s', (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it('creates every list index with its columns and drops the ones it replaces', async () => {
    const rows = await queryRows<{ indexname: string; tablename: string; indexdef: string }>(
      database.db,
      sql`select indexname, tablename, indexdef from pg_indexes where schemaname = 'public'`,
    );
    const byName = new Map(rows.map((r) => [r.indexname, r]));
    for (const [name, expected] of Object.entries(INDEXES)) {
      const found = byName.get(name);
      expect(found, `${name} is missing`).toBeDefined();
      expect(found!.tablename).toBe(expected.table);
      expect(found!.indexdef).toMatch(expected.definition);
    }
    for (const name of REPLACED) expect(byName.has(name), `${name} is still there`).toBe(false);
  });

  it('loads pg_trgm, whose index answers a search by part of the email', async () => {
    const extensions = await queryRows<{ extname: string }>(
      database.db,
      sql`select extname from pg_extension where extname = 'pg_trgm'`,
    );
    expect(extensions).toHaveLength(1);
    await database.db.execute(
      sql`insert into users (email, provider) values ('someone.rare@example.com', 'local'),
          ('other@example.com', 'local')`,
    );
    const plan = await database.db.transaction(async (tx) => {
      // Two rows are cheaper to scan: forbid that to see that the index can answer.
      await tx.execute(sql`set local enable_seqscan = off`);
      return planOf(tx, sql`select id from users where email ilike '%rare@%'`);
    });
    expect(plan.map((n) => n['Index Name'])).toContain('users_email_trgm_idx');
    const found = await queryRows<{ email: string }>(
      database.db,
      sql`select email from users where email ilike '%RARE@%'`,
    );
    expect(found).toEqual([{ email: 'someone.rare@example.com' }]);
  });
});

const ROWS = 20_000;

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'list plans on PostgreSQL with 20,000 rows a table',
  () => {
    let database: TestDatabase;
    /** A key from the middle of each list, as a cursor would carry it. */
    const middle: Record<string, { ts: string; id: string }> = {};
    let someUser = '';

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      await seed(database.db);
      const key = async (table: string, ts: string) => {
        const rows = await queryRows<{ ts: string; id: string }>(
          database.db,
          sql.raw(`select to_char(${ts} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as ts,
                   id::text as id from ${table} order by ${ts} desc, id desc offset ${ROWS / 2} limit 1`),
        );
        return rows[0]!;
      };
      middle.users = await key('users', 'created_at');
      middle.tasks = await key('video_tasks', 'created_at');
      middle.payments = await key('checkout_sessions', 'created_at');
      middle.webhooks = await key('webhook_events', 'received_at');
      middle.actions = await key('admin_actions', 'created_at');
      someUser = (
        await queryRows<{ id: string }>(database.db, sql`select id from users limit 1`)
      )[0]!.id;
    }, 120_000);
    afterAll(() => database?.dispose());

    /** 20,000 rows in each listed table, spread over time, and the planner's statistics. */
    async function seed(db: DbOrTx) {
      await db.execute(
        sql.raw(`
        insert into users (email, provider, created_at)
        select 'user' || n || '@example.com', 'local', now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}) n;
        insert into video_tasks (id, user_id, model, mode, prompt, provider, status, deadline_at,
                                 created_at, completed_at, result_url, credits_charged)
        select gen_random_uuid(), u.ids[1 + n % 200], 'veo3', 'text', 'A seeded prompt', 'local',
               case when n % 10 = 0 then 'failed' when n % 50 = 1 then 'pending' else 'completed' end,
               now(), now() - n * interval '1 minute',
               case when n % 10 <> 0 and n % 50 <> 1 then now() - n * interval '1 minute' + interval '40 seconds' end,
               case when n % 10 <> 0 and n % 50 <> 1 then '/media/' || n || '.mp4' end, 17
        from generate_series(1, ${ROWS}) n,
             (select array_agg(id) as ids from (select id from users limit 200) s) u;
        -- The ledger as the video domain writes it: a charge per task, a refund per failure.
        insert into credit_transactions (user_id, amount, balance_after, source_type, source_id, created_at)
        select user_id, -17, 0, 'video_task', id::text, created_at from video_tasks;
        insert into credit_transactions (user_id, amount, balance_after, source_type, source_id, created_at)
        select user_id, 17, 17, 'refund', id::text, created_at + interval '1 minute'
        from video_tasks where status = 'failed';
        insert into admin_actions (admin_username, action, details, created_at)
        select 'ops', 'credits.adjust', '{}'::jsonb, now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}) n;
        insert into checkout_sessions (id, provider, user_id, kind, item_id, amount_cents, currency,
                                       credits, success_url, cancel_url, created_at)
        select 'cs_seed_' || n, 'local', u.ids[1 + n % 200], 'credits', 'starter', 900, 'usd', 100,
               'http://localhost/ok', 'http://localhost/cancel', now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}) n,
             (select array_agg(id) as ids from (select id from users limit 200) s) u;
        insert into webhook_events (id, provider, type, handled, payload, received_at)
        select 'evt_seed_' || n, 'stripe', 'checkout.session.completed', true, '{}'::jsonb,
               now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}) n;
        analyze;
      `),
      );
    }

    const first: PageStart = { limit: 20, offset: 0, after: null };
    const after = (list: string): PageStart => ({ limit: 20, offset: 0, after: middle[list]! });

    /** The plan reads `index`, sorts nothing and scans no table whole. */
    async function expectIndexServed(query: SQL, index: string | string[]) {
      const plan = await planOf(database.db, query);
      const text = describePlan(plan);
      // A join's inner side is looked up per row, never read whole and kept (Materialize).
      expect(
        plan.filter((n) => n['Node Type'] === 'Materialize'),
        text,
      ).toEqual([]);
      const names = plan.map((n) => n['Index Name']);
      const wanted = Array.isArray(index) ? index : [index];
      expect(
        wanted.some((name) => names.includes(name)),
        `${wanted.join(' or ')} in ${text}`,
      ).toBe(true);
      expectNoSortNorSeqScan(plan, text);
    }

    /** No node sorts rows and none reads a table whole. */
    function expectNoSortNorSeqScan(plan: PlanNode[], text: string) {
      for (const type of ['Sort', 'Seq Scan']) {
        expect(
          plan.filter((n) => n['Node Type'] === type),
          text,
        ).toEqual([]);
      }
    }

    const LISTS: Array<[name: string, source: () => ListSource, index: string | string[]]> = [
      ['users', () => userListSource(''), 'users_created_id_idx'],
      ['tasks', () => taskListSource({}), 'video_tasks_created_id_idx'],
      ['payments', paymentListSource, 'checkout_sessions_created_id_idx'],
      ['webhooks', webhookListSource, 'webhook_events_received_id_idx'],
      ['actions', actionListSource, 'admin_actions_created_id_idx'],
    ];

    it.each(LISTS)(
      'the admin %s list: first page and a cursor page',
      async (name, source, index) => {
        await expectIndexServed(pageQueries(source(), first).rows, index);
        await expectIndexServed(pageQueries(source(), after(name)).rows, index);
      },
    );

    it.each(LISTS)('the admin %s total counts a bounded number of rows', async (_name, source) => {
      const count = pageQueries(source(), first).count!;
      const plan = await planOf(database.db, count);
      expect(
        plan.map((n) => n['Node Type']),
        describePlan(plan),
      ).toContain('Limit');
      expect(plan.filter((n) => n['Node Type'] === 'Sort')).toEqual([]);
      // A cursor page does not count at all.
      expect(pageQueries(source(), after('users')).count).toBeNull();
    });

    it('the admin task list by status and by user', async () => {
      for (const status of ['failed', 'pending', 'completed'] as const) {
        const plan = await planOf(database.db, pageQueries(taskListSource({ status }), first).rows);
        const text = describePlan(plan);
        // The status index gives created_at order within a status; ties on created_at (if any)
        // are put in id order by an Incremental Sort of that group, never a sort of the table.
        expectNoSortNorSeqScan(plan, text);
      }
      const byUser = await planOf(
        database.db,
        pageQueries(taskListSource({ userId: someUser }), first).rows,
      );
      expect(
        byUser.filter((n) => n['Node Type'] === 'Seq Scan'),
        describePlan(byUser),
      ).toEqual([]);
    });

    it('a search by part of the email reads the trigram index', async () => {
      const query = pageQueries(userListSource('user1234@'), first).rows;
      const plan = await planOf(database.db, query);
      expect(
        plan.map((n) => n['Index Name']),
        describePlan(plan),
      ).toContain('users_email_trgm_idx');
      expect(
        plan.filter((n) => n['Node Type'] === 'Seq Scan'),
        describePlan(plan),
      ).toEqual([]);
      const found = await queryRows<{ email: string }>(database.db, query);
      expect(found.map((r) => r.email)).toEqual(['user1234@example.com']);
    });

    it("a user's ledger and history pages are served by their indexes", async () => {
      await expectIndexServed(
        sql`select id from credit_transactions where user_id = ${someUser}
            and (created_at, id) < (now(), ${'ffffffff-ffff-4fff-8fff-ffffffffffff'})
            order by created_at desc, id desc limit 11`,
        'credit_transactions_user_created_id_idx',
      );
      await expectIndexServed(
        sql`select id from video_tasks
            where user_id = ${someUser} and status = 'completed' and result_url is not null
            order by completed_at desc, id desc limit 11`,
        'video_tasks_history_idx',
      );
    });
  },
);
