/**
 * The admin's email search at scale (issue 19, email-search.ts, migration 0012). 20,000 users
 * (4,000 on PGlite) whose emails share everything but a number (member-NNNNN@shared.example),
 * the worst case for a trigram index: every trigram of 'member' and 'shared' is in every email. After ANALYZE the
 * statistics say so, and the search asks the index for the rare part only: on PostgreSQL its
 * EXPLAIN reads a fraction of the index pages the plain ILIKE reads. On both databases every
 * search finds exactly the rows a plain ILIKE finds, newest first, with the same total.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import {
  EMAIL_TRIGRAM_STATS,
  planEmailSearch,
  readEmailTrigramStats,
  type TrigramStats,
} from '../../server/domains/admin/email-search.ts';
import { listUsers, userListSource } from '../../server/domains/admin/list-repository.ts';
import { pageQueries, type PageStart } from '../../server/domains/admin/paging.ts';
import { bearer, createTestApp, signInAdmin, type TestApp } from '../helpers/app.ts';
import { allDatabaseKinds } from '../helpers/database.ts';

const first: PageStart = { limit: 20, offset: 0, after: null };
const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

describe.each(allDatabaseKinds)('admin email search on %s', (kind) => {
  // PGlite checks the answers on fewer rows (its inserts are slower); PostgreSQL on enough for
  // the common trigrams' posting lists to span many index pages, and a search to be broad.
  const ROWS = kind === 'postgres' ? 20_000 : 4000;
  let t: TestApp;
  let adminToken: string;
  let stats: TrigramStats | null;

  beforeAll(async () => {
    t = await createTestApp(kind);
    adminToken = await signInAdmin(t.app);
    await t.database.db.execute(
      sql.raw(`insert into users (email, provider, created_at)
        select 'member-' || lpad(n::text, 5, '0') || '@shared.example', 'local',
               now() - n * interval '1 minute'
        from generate_series(1, ${ROWS}) n`),
    );
    await t.database.db.execute(
      sql`insert into users (email, provider, created_at) values
          ('odd_one%out@elsewhere.test', 'local', now() - interval '7 minutes 30 seconds'),
          ('MEMBER-01234@Upper.Example', 'local', now() - interval '3 days')`,
    );
    await t.database.db.execute(sql`analyze users`);
    stats = await readEmailTrigramStats(t.database.db);
  }, 120_000);
  afterAll(() => t.close());

  it('migration 0012 keeps trigram statistics of the emails, and ANALYZE fills them', async () => {
    const objects = await queryRows<{ stxname: string }>(
      t.database.db,
      sql`select stxname from pg_statistic_ext where stxname = ${EMAIL_TRIGRAM_STATS}`,
    );
    expect(objects).toHaveLength(1);
    expect(stats).not.toBeNull();
    expect(stats!.rows).toBeGreaterThan(ROWS * 0.9);
    // Every email holds 'sha' and 'mem'; a five-digit number's trigram is rare.
    expect(stats!.frequencies.get('sha')).toBeGreaterThan(0.9);
    expect(stats!.frequencies.get('mem')).toBeGreaterThan(0.9);
    expect(stats!.frequencies.get('123') ?? stats!.unlisted).toBeLessThan(0.05);
  });

  it.each([
    'member-01234', // one customer (and the upper-case one: the search ignores case)
    '01234@shared',
    'ber-0123', // ten
    'member-0', // 9,999: most of them
    'shared', // every one: broad, walked in order
    'd_one%o', // LIKE's wildcards are plain characters
    'nobody-here',
  ])('"%s" finds what a plain ILIKE finds, newest first, with its total', async (term) => {
    const reference = await queryRows<{ email: string }>(
      t.database.db,
      sql`select email from users where provider <> 'admin' and email ilike ${escapeLike(term)}
          order by created_at desc, id desc limit 20`,
    );
    const [counted] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from users where provider <> 'admin'
          and email ilike ${escapeLike(term)}`,
    );
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?limit=20&q=${encodeURIComponent(term)}`,
      headers: bearer(adminToken),
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json().data as {
      users: { email: string }[];
      total: number;
      total_exact: boolean;
    };
    expect(page.users.map((u) => u.email)).toEqual(reference.map((r) => r.email));
    const n = counted!.n;
    expect(page.total).toBe(Math.min(n, 1020));
    expect(page.total_exact).toBe(n <= 1020);
    // The list read as the planner says, straight from the repository, agrees.
    const listed = await listUsers(t.database.db, term, planEmailSearch(term, stats), first);
    expect(listed.users.map((u) => u.email)).toEqual(reference.map((r) => r.email));
  });

  it.runIf(kind === 'postgres')(
    'a search for one member reads a fraction of the index pages a plain ILIKE reads',
    async () => {
      const term = 'member-01234';
      const plan = planEmailSearch(term, stats);
      expect(plan.broad).toBe(false);
      expect(plan.probe).not.toContain('member');
      const { PgDialect } = await import('drizzle-orm/pg-core');
      const dialect = new PgDialect();
      const hits = async (query: ReturnType<typeof pageQueries>['rows']) => {
        const { sql: text, params } = dialect.sqlToQuery(query);
        const rows = await queryRows<{ 'QUERY PLAN': [{ Plan: { 'Shared Hit Blocks': number } }] }>(
          t.database.db,
          sql.raw(
            `explain (analyze, buffers, format json) ${text.replace(/\$(\d+)/g, (_, i) =>
              literal(params[Number(i) - 1]),
            )}`,
          ),
        );
        const node = rows[0]!['QUERY PLAN'][0].Plan;
        return node['Shared Hit Blocks'];
      };
      const planned = await hits(pageQueries(userListSource(term, plan), first).rows);
      const plain = await hits(
        pageQueries(userListSource(term, { probe: term, broad: false }), first).rows,
      );
      expect(planned, `planned ${planned} pages, plain ${plain}`).toBeLessThan(plain / 3);
    },
  );
});

/** A bound parameter as an SQL literal, for EXPLAIN ANALYZE of the repository's statement. */
function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}
