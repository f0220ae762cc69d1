/**
 * The data API's permission matrix: anonymous, a user, another user, an editor and an
 * administrator, against every exposed table and every operation. Allowed reads never carry a
 * row that belongs to someone else; refused writes change nothing.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { policies, type TablePolicy } from '../../server/domains/data-api/policies.ts';
import { bearer } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  createDataApiWorld,
  dataApi,
  type DataApiWorld,
  type Person,
} from './data-api-fixtures.ts';

type Who = 'anonymous' | 'user' | 'other user' | 'editor' | 'admin';
type Table = keyof typeof policies;
type Op = 'select' | 'insert' | 'update' | 'delete';
type Row = Record<string, unknown>;

const WHO: Who[] = ['anonymous', 'user', 'other user', 'editor', 'admin'];

/** Expected status per caller, in the order of WHO. */
const MATRIX: Array<[Table, Op, [number, number, number, number, number]]> = [
  //                               anon user other editor admin
  ['video_tasks', 'select', /*   */ [401, 200, 200, 200, 200]],
  ['video_tasks', 'insert', /*   */ [403, 403, 403, 403, 403]],
  ['video_tasks', 'update', /*   */ [403, 403, 403, 403, 403]],
  ['video_tasks', 'delete', /*   */ [403, 403, 403, 403, 403]],
  ['credit_transactions', 'select', [401, 200, 200, 200, 200]],
  ['credit_transactions', 'insert', [403, 403, 403, 403, 403]],
  ['credit_transactions', 'update', [403, 403, 403, 403, 403]],
  ['credit_transactions', 'delete', [403, 403, 403, 403, 403]],
  ['posts', 'select', /*         */ [200, 200, 200, 200, 200]],
  ['posts', 'insert', /*         */ [401, 403, 403, 200, 200]],
  ['posts', 'update', /*         */ [401, 403, 403, 200, 200]],
  ['posts', 'delete', /*         */ [401, 403, 403, 200, 200]],
  ['users', 'select', /*         */ [401, 200, 200, 200, 200]],
  ['users', 'insert', /*         */ [403, 403, 403, 403, 403]],
  ['users', 'update', /*         */ [401, 200, 200, 200, 403]],
  ['users', 'delete', /*         */ [403, 403, 403, 403, 403]],
];

const CASES = MATRIX.flatMap(([table, op, statuses]) =>
  WHO.map((who, i) => [who, table, op, statuses[i]!] as const),
);

describe.each(databaseKinds)('data API policies on %s', (kind) => {
  let w: DataApiWorld;
  let before: string;

  /** Everything a refused write could have touched, as one comparable text. */
  const snapshot = async () =>
    JSON.stringify(
      await Promise.all([
        queryRows(w.t.database.db, sql`select id, status, progress from video_tasks order by id`),
        queryRows(w.t.database.db, sql`select id, amount from credit_transactions order by id`),
        queryRows(
          w.t.database.db,
          sql`select id, name, avatar_url, credits, can_manage_blog from users where email = 'ann@example.com'`,
        ),
      ]),
    );

  beforeAll(async () => {
    w = await createDataApiWorld(kind);
    before = await snapshot();
  });
  afterAll(() => w.t.close());

  const person = (who: Who): Person | null =>
    ({ anonymous: null, user: w.ann, 'other user': w.bob, editor: w.editor, admin: w.admin })[who];

  /** A request that a caller allowed to do `op` would expect to succeed. */
  async function request(who: Who, table: Table, op: Op) {
    const me = person(who);
    const token = me?.token ?? null;
    const selfId = me?.user.id ?? w.ann.user.id;
    const path = `/api/db/${table}`;
    switch (op) {
      case 'select':
        return dataApi(w.t, token, 'GET', path, { limit: '100' });
      case 'insert': {
        const rows: Record<Table, Row> = {
          video_tasks: { prompt: 'A free video', model: 'veo3', user_id: selfId },
          credit_transactions: { user_id: selfId, amount: 1_000_000, source_type: 'gift' },
          posts: { title: `Matrix post by ${who}`, content: '<p>Written in a test.</p>' },
          users: { email: 'mallory@example.com', name: 'Mallory' },
        };
        return dataApi(w.t, token, 'POST', path, rows[table]);
      }
      case 'update': {
        const bodies: Record<Table, Row> = {
          video_tasks: { data: { status: 'completed' }, where: { id: w.tasks.ann[2] } },
          credit_transactions: { data: { amount: 1_000_000 }, where: { user_id: w.ann.user.id } },
          posts: { data: { excerpt: `Touched by ${who}` }, where: { id: w.posts.draft.id } },
          users: { data: { name: `Renamed ${who}` }, where: { id: selfId } },
        };
        return dataApi(w.t, token, 'PUT', path, bodies[table]);
      }
      case 'delete': {
        let where: Row = { id: w.ann.user.id };
        if (table === 'video_tasks') where = { id: w.tasks.ann[0] };
        if (table === 'credit_transactions') where = { user_id: w.ann.user.id };
        if (table === 'posts') {
          const doomed = await w.t.app.inject({
            method: 'POST',
            url: '/api/blog/admin/posts',
            headers: bearer(w.editor.token),
            payload: { title: `To be deleted by ${who}`, content: '<p>Temporary.</p>' },
          });
          where = { id: doomed.json().data.id };
        }
        return dataApi(w.t, token, 'DELETE', path, { where });
      }
    }
  }

  /** What an allowed read may contain: only the caller's own rows, or published posts. */
  function expectOnlyVisibleRows(who: Who, table: Table, rows: Row[]) {
    const me = person(who);
    if (table === 'posts') {
      const ids = rows.map((r) => r.id);
      if (who === 'editor' || who === 'admin') {
        expect(ids).toContain(w.posts.draft.id);
      } else {
        expect(ids).not.toContain(w.posts.draft.id);
        expect(rows.every((r) => r.status === 'published')).toBe(true);
      }
      expect(ids).toContain(w.posts.published.id);
      return;
    }
    const owner = table === 'users' ? 'id' : 'user_id';
    const owners = new Set(rows.map((r) => r[owner]));
    if (who === 'admin') {
      expect(owners).toContain(w.ann.user.id);
      expect(owners).toContain(w.bob.user.id);
      return;
    }
    expect([...owners].every((id) => id === me!.user.id)).toBe(true);
    if (table === 'users') expect(rows).toHaveLength(1);
    if (who === 'user' && table === 'video_tasks') expect(rows).toHaveLength(3);
    if (who === 'other user' && table === 'video_tasks') {
      expect(rows.map((r) => r.prompt)).toEqual(["Bob's secret storyboard"]);
    }
  }

  it.each(CASES)('%s · %s · %s → %i', async (who, table, op, status) => {
    const res = await request(who, table, op);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json();
    if (status !== 200) {
      expect(body).toMatchObject({ success: false, message: expect.any(String) });
      expect(body).not.toHaveProperty('data');
      return;
    }
    expect(body.success).toBe(true);
    if (op === 'select') expectOnlyVisibleRows(who, table, body.data);
    if (op !== 'select') expect(body.data).toHaveLength(1);
    if (table === 'users' && op === 'update') {
      expect(body.data[0]).toMatchObject({ id: person(who)!.user.id, name: `Renamed ${who}` });
    }
  });

  it("never changed another user's task, ledger or account through a refused write", async () => {
    const after = JSON.parse(await snapshot()) as Row[][];
    const was = JSON.parse(before) as Row[][];
    expect(after[0]).toEqual(was[0]);
    expect(after[1]).toEqual(was[1]);
    // Ann renamed her own row in the matrix; nothing else about her changed.
    expect(after[2]).toEqual([{ ...was[2]![0], name: 'Renamed user' }]);
  });

  it('a user never reaches another user’s rows, whatever the where says', async () => {
    for (const [table, where] of [
      ['video_tasks', { user_id: w.ann.user.id }],
      ['video_tasks', { id: { in: w.tasks.ann } }],
      ['credit_transactions', { user_id: { neq: w.bob.user.id } }],
      ['users', { email: 'ann@example.com' }],
      ['users', { id: { neq: w.bob.user.id } }],
    ] as const) {
      const res = await dataApi(w.t, w.bob.token, 'GET', `/api/db/${table}`, { where });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ data: [], count: 0 });
    }
  });

  it('never shows the rows behind admin sessions, not even to an administrator', async () => {
    const [row] = await queryRows<{ id: string }>(
      w.t.database.db,
      sql`insert into users (email, name, provider) values ('admin:night-ops', 'night-ops', 'admin') returning id`,
    );
    const listed = await dataApi(w.t, w.admin.token, 'GET', '/api/db/users', { limit: '100' });
    const ids = listed.json().data.map((u: Row) => u.id);
    expect(ids).toContain(w.ann.user.id);
    expect(ids).not.toContain(row!.id);
    expect(ids).not.toContain(w.admin.user.id);
    for (const where of [{ id: row!.id }, { email: { like: 'admin:%' } }]) {
      const res = await dataApi(w.t, w.admin.token, 'GET', '/api/db/users', { where });
      expect(res.json()).toMatchObject({ data: [], count: 0 });
    }
    const summary = await w.t.app.inject({
      method: 'POST',
      url: '/api/rpc/user_credit_summary',
      headers: bearer(w.admin.token),
      payload: { user_id: row!.id },
    });
    expect(summary.statusCode).toBe(404);
    await queryRows(w.t.database.db, sql`delete from users where id = ${row!.id}::uuid`);
  });

  it.each([
    'sessions',
    'password_reset_tokens',
    'webhook_events',
    'checkout_sessions',
    'subscriptions',
    'post_redirects',
    'admin_actions',
    'admin_login_failures',
  ])('never exposes %s, not even to an administrator', async (table) => {
    for (const method of ['GET', 'POST', 'PUT', 'DELETE'] as const) {
      const res = await dataApi(
        w.t,
        w.admin.token,
        method,
        `/api/db/${table}`,
        {
          GET: {},
          POST: { id: 'x' },
          PUT: { data: { id: 'x' }, where: { id: 'x' } },
          DELETE: { where: { id: 'x' } },
        }[method],
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('UNKNOWN_TABLE');
    }
  });
});

describe('the policies themselves', () => {
  const entries = Object.entries(policies) as Array<[string, TablePolicy]>;
  const SECRETS = [
    'password_hash',
    'google_sub',
    'token_hash',
    'payload',
    'provider_job_id',
    'input_image',
    'lease_owner',
    'author_id',
  ];

  it.each(entries)(
    '%s: plain identifiers, granted columns exist, no secret columns',
    (table, policy) => {
      const ident = /^[a-z][a-z0-9_]*$/;
      expect(table).toMatch(ident);
      for (const column of Object.keys(policy.hiddenRows ?? {})) expect(column).toMatch(ident);
      for (const column of Object.keys(policy.columns)) {
        expect(column).toMatch(ident);
        expect(SECRETS).not.toContain(column);
      }
      for (const op of ['select', 'insert', 'update'] as const) {
        for (const access of Object.values(policy[op] ?? {})) {
          if (!access) continue; // an explicit refusal
          for (const column of access.columns) expect(policy.columns).toHaveProperty(column);
        }
      }
    },
  );

  it('lets nobody set credits or blog rights, and nobody write the ledger or tasks', () => {
    const settable = Object.values(policies.users.update).flatMap((a) => a?.columns ?? []);
    expect(settable.sort()).toEqual(['avatar_url', 'name']);
    for (const table of ['video_tasks', 'credit_transactions'] as const) {
      expect([policies[table].insert, policies[table].update, policies[table].delete]).toEqual([
        null,
        null,
        null,
      ]);
    }
  });
});
