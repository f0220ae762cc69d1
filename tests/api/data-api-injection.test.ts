/**
 * An injection corpus against the data API: SQL and tricks in where keys and values, columns,
 * orderBy, table and function names. Each is refused with 400, 403 or 404 — never a 500, never
 * a row — and afterwards every table is still there.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { bearer } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { createDataApiWorld, type DataApiWorld } from './data-api-fixtures.ts';

type Who = 'anonymous' | 'ann' | 'editor' | 'admin';
interface Attack {
  who: Who;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  url: string;
  /** JSON body, or raw text sent as application/json. */
  body?: unknown;
  raw?: string;
}

const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;
const tasks = (params: Record<string, string>) => `/api/db/video_tasks${q(params)}`;
const where = (w: unknown) => tasks({ where: typeof w === 'string' ? w : JSON.stringify(w) });
const get = (url: string, who: Who = 'ann'): Attack => ({ who, method: 'GET', url });
const UUID = '00000000-0000-4000-8000-000000000000';

const CORPUS: Array<[string, Attack, 400 | 403 | 404]> = [
  // where: SQL in keys
  ['SQL in a where key', get(where({ "status = 'x' OR 1=1 --": 'a' })), 400],
  ['quoted identifier breakout in a key', get(where({ 'user_id" = "user_id" OR "1': 1 })), 400],
  ['a subquery as a key', get(where({ '(select password_hash from users)': 'x' })), 400],
  [
    'a hidden column (password_hash) as admin',
    get(`/api/db/users${q({ where: '{"password_hash":{"like":"%"}}' })}`, 'admin'),
    400,
  ],
  ['a hidden column (provider_job_id)', get(where({ provider_job_id: { neq: null } })), 400],
  ['an admin-only column as a user', get(where({ lease_expires_at: { neq: null } })), 400],
  // where: values that do not fit their column
  ['SQL in an enum value', get(where({ status: "completed' OR '1'='1" })), 400],
  ['SQL in a uuid value', get(where({ id: "1' OR '1'='1" })), 400],
  ['SQL in a timestamp', get(where({ created_at: { gt: 'yesterday; drop table users' } })), 400],
  ['30 February', get(where({ created_at: { lt: '2025-02-30T00:00:00Z' } })), 400],
  ['year zero', get(where({ created_at: { gt: '0000-01-01' } })), 400],
  ['an int beyond 32 bits', get(where({ progress: 99_999_999_999 })), 400],
  ['a fraction for an int', get(where({ progress: 1.5 })), 400],
  [
    'a string for a boolean',
    get(`/api/db/users${q({ where: '{"can_manage_blog":"true"}' })}`),
    400,
  ],
  ['a NUL byte in text', get(where({ prompt: 'a\u0000b' })), 400],
  // where: operators
  ['nested operators', get(where({ progress: { gt: { lt: 5 } } })), 400],
  ['an operator inside eq', get(where({ progress: { eq: { in: [1] } } })), 400],
  ['an unknown operator', get(where({ progress: { between: [1, 2] } })), 400],
  ['a Mongo-style operator', get(where({ progress: { $gt: 1 } })), 400],
  ['an SQL operator name', get(where({ prompt: { ilike: '%' } })), 400],
  ['an empty operator object', get(where({ progress: {} })), 400],
  ['gt on a boolean', get(`/api/db/users${q({ where: '{"can_manage_blog":{"gt":false}}' })}`), 400],
  [
    'a huge in list',
    get(where({ progress: { in: Array.from({ length: 101 }, (_, i) => i) } })),
    400,
  ],
  ['an empty in list', get(where({ progress: { in: [] } })), 400],
  ['in with a single value, not a list', get(where({ progress: { in: 5 } })), 400],
  ['an over-long like', get(where({ prompt: { like: `%${'a'.repeat(100)}` } })), 400],
  ['like ending in a lone backslash', get(where({ prompt: { like: 'abc\\' } })), 400],
  ['like on a uuid', get(where({ id: { like: '%' } })), 400],
  // where: shapes and prototype keys
  ['__proto__ as a column', get(where('{"__proto__":{"status":"completed"}}')), 400],
  ['constructor.prototype as a column', get(where({ constructor: { prototype: { x: 1 } } })), 400],
  ['__proto__ as an operator', get(where('{"status":{"__proto__":"completed"}}')), 400],
  ['constructor as an operator', get(where({ status: { constructor: 'x' } })), 400],
  ['toString as a column', get(where({ toString: 'x' })), 400],
  ['an array where an object is expected', get(where([{ status: 'completed' }])), 400],
  ['a list as an equality value', get(where({ status: ['completed'] })), 400],
  ['a JSON string as where', get(where('"status"')), 400],
  ['a number as where', get(where('1')), 400],
  ['non-JSON where', get(where("status='completed'")), 400],
  ['truncated JSON where', get(where('{"status":')), 400],
  [
    'too many columns in where',
    get(where(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`c${i}`, 1])))),
    400,
  ],
  ['an over-long where', get(where({ prompt: 'x'.repeat(9000) })), 400],
  ['where given twice', get(`/api/db/video_tasks?where=%7B%7D&where=%7B%7D`), 400],
  ['a bracketed where', get(`/api/db/video_tasks?where[status]=completed`), 400],
  // columns
  ['a hidden column in columns', get(tasks({ columns: 'id,provider_job_id' })), 400],
  [
    'password_hash in columns as admin',
    get(`/api/db/users${q({ columns: '*,password_hash' })}`, 'admin'),
    400,
  ],
  ['statement breakout in columns', get(tasks({ columns: 'id; drop table users' })), 400],
  [
    'a subquery in columns',
    get(tasks({ columns: '(select password_hash from users limit 1)' })),
    400,
  ],
  ['a quoted identifier in columns', get(tasks({ columns: '"id"' })), 400],
  ['a function in columns', get(tasks({ columns: 'count(*)' })), 400],
  // orderBy
  ['statement breakout in orderBy', get(tasks({ orderBy: 'id; drop table users' })), 400],
  [
    'a hidden column in orderBy',
    get(`/api/db/users${q({ orderBy: 'password_hash' })}`, 'admin'),
    400,
  ],
  ['a position in orderBy', get(tasks({ orderBy: '1' })), 400],
  ['an expression in orderBy', get(tasks({ orderBy: 'prompt desc, (select 1)' })), 400],
  ['a list column in orderBy', get(`/api/db/posts${q({ orderBy: 'tags' })}`), 400],
  ['an unknown query parameter', get(tasks({ select: '*' })), 400],
  // table names
  ['a statement in the table name', get('/api/db/users%3Bdrop%20table%20users'), 404],
  ['a path climb', get('/api/db/..%2Fusers'), 404],
  ['pg_catalog.pg_user', get('/api/db/pg_catalog.pg_user', 'admin'), 404],
  ['pg_user', get('/api/db/pg_user', 'admin'), 404],
  ['information_schema.tables', get('/api/db/information_schema.tables', 'admin'), 404],
  ['public.users', get('/api/db/public.users'), 404],
  ['a quoted table name', get('/api/db/%22users%22'), 404],
  ['another case', get('/api/db/Users'), 404],
  ['sessions', get('/api/db/sessions', 'admin'), 404],
  ['__proto__ as a table', get('/api/db/__proto__'), 404],
  ['constructor as a table', get('/api/db/constructor'), 404],
  // rpc
  [
    'pg_sleep as a function',
    { who: 'ann', method: 'POST', url: '/api/rpc/pg_sleep', body: { seconds: 10 } },
    404,
  ],
  [
    'version() as a function',
    { who: 'admin', method: 'POST', url: '/api/rpc/version', body: {} },
    404,
  ],
  [
    '__proto__ as a function',
    { who: 'ann', method: 'POST', url: '/api/rpc/__proto__', body: {} },
    404,
  ],
  [
    'toString as a function',
    { who: 'ann', method: 'POST', url: '/api/rpc/toString', body: {} },
    404,
  ],
  [
    'a statement in a function name',
    {
      who: 'ann',
      method: 'POST',
      url: '/api/rpc/user_credit_summary%3Bdrop%20table%20users',
      body: {},
    },
    404,
  ],
  [
    'SQL in an rpc uuid',
    {
      who: 'admin',
      method: 'POST',
      url: '/api/rpc/user_credit_summary',
      body: { user_id: "' or 1=1 --" },
    },
    400,
  ],
  [
    'an extra rpc argument',
    {
      who: 'ann',
      method: 'POST',
      url: '/api/rpc/user_credit_summary',
      body: { user_id: UUID, admin: true },
    },
    400,
  ],
  [
    'an operator as a slug',
    {
      who: 'anonymous',
      method: 'POST',
      url: '/api/rpc/increment_post_views',
      body: { slug: { $ne: null } },
    },
    400,
  ],
  [
    'a list as rpc arguments',
    { who: 'ann', method: 'POST', url: '/api/rpc/user_credit_summary', body: [] },
    400,
  ],
  // writes
  [
    'SQL in a data key',
    {
      who: 'ann',
      method: 'PUT',
      url: '/api/db/users',
      body: { data: { 'credits = 999999, name': 'x' }, where: { id: UUID } },
    },
    400,
  ],
  [
    'a tautology key in a write where',
    {
      who: 'editor',
      method: 'PUT',
      url: '/api/db/posts',
      body: { data: { excerpt: 'x' }, where: { '1=1': true } },
    },
    400,
  ],
  [
    'an empty write where',
    { who: 'ann', method: 'PUT', url: '/api/db/users', body: { data: { name: 'x' }, where: {} } },
    400,
  ],
  [
    'credits through data',
    {
      who: 'ann',
      method: 'PUT',
      url: '/api/db/users',
      body: { data: { credits: 999_999 }, where: { email: 'ann@example.com' } },
    },
    403,
  ],
  [
    'a non-JSON where in a delete',
    { who: 'editor', method: 'DELETE', url: '/api/db/posts', body: { where: 'id=anything' } },
    400,
  ],
  [
    'an array where in a delete',
    { who: 'editor', method: 'DELETE', url: '/api/db/posts', body: { where: [{ id: UUID }] } },
    400,
  ],
  [
    '__proto__ in a posted row',
    {
      who: 'editor',
      method: 'POST',
      url: '/api/db/posts',
      raw: '{"title":"x","content":"<p>x</p>","__proto__":{"isAdmin":true}}',
    },
    400,
  ],
  [
    'constructor.prototype in a posted row',
    {
      who: 'editor',
      method: 'POST',
      url: '/api/db/posts',
      raw: '{"title":"x","content":"<p>x</p>","constructor":{"prototype":{"isAdmin":true}}}',
    },
    400,
  ],
  ['a non-JSON body', { who: 'editor', method: 'PUT', url: '/api/db/posts', raw: '{"data":' }, 400],
  [
    'a ledger row forged by a user',
    {
      who: 'ann',
      method: 'POST',
      url: '/api/db/credit_transactions',
      body: { user_id: UUID, amount: 5000 },
    },
    403,
  ],
];

/** Values are data, never SQL: these are valid queries that simply match nothing. */
const HARMLESS_VALUES: Array<[string, unknown]> = [
  ['a tautology in text', { prompt: "' OR '1'='1" }],
  ['a comment in a like', { prompt: { like: "%' OR 1=1 --" } }],
  ['a statement in an in list', { prompt: { in: ["x'); drop table users; --", 'y'] } }],
  ['a dollar-quoted string', { prompt: '$$; drop table video_tasks; $$' }],
  ['a backslash escape in like', { prompt: { like: '\\%\\_' } }],
];

describe.each(databaseKinds)('data API injection corpus on %s', (kind) => {
  let w: DataApiWorld;
  /** Strings that must never appear in an answer to these requests. */
  let secrets: string[];
  let countsBefore: Record<string, number> | undefined;

  const tableCounts = async () =>
    (
      await queryRows<Record<string, number>>(
        w.t.database.db,
        sql`select (select count(*)::int from users) as users,
                   (select count(*)::int from sessions) as sessions,
                   (select count(*)::int from video_tasks) as video_tasks,
                   (select count(*)::int from credit_transactions) as credit_transactions,
                   (select count(*)::int from posts) as posts`,
      )
    )[0];

  beforeAll(async () => {
    w = await createDataApiWorld(kind);
    const signup = await w.t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: { email: 'carol@example.com', password: 'correct horse battery', name: 'Carol' },
    });
    expect(signup.statusCode).toBe(200);
    const hashes = await queryRows<{ password_hash: string }>(
      w.t.database.db,
      sql`select password_hash from users where password_hash is not null`,
    );
    const tokens = await queryRows<{ token_hash: string }>(
      w.t.database.db,
      sql`select token_hash from sessions`,
    );
    secrets = [
      ...hashes.map((r) => r.password_hash),
      ...tokens.map((r) => r.token_hash),
      "Bob's secret storyboard",
      'carol@example.com',
    ];
    expect(secrets.length).toBeGreaterThan(5);
    countsBefore = await tableCounts();
    expect(countsBefore).toMatchObject({ video_tasks: 4, credit_transactions: 3, posts: 2 });
  });
  afterAll(() => w.t.close());

  const tokenOf = (who: Who) =>
    who === 'anonymous' ? null : { ann: w.ann, editor: w.editor, admin: w.admin }[who].token;

  const send = (attack: Attack) => {
    const token = tokenOf(attack.who);
    const headers: Record<string, string> = token ? bearer(token) : {};
    if (attack.raw !== undefined) headers['content-type'] = 'application/json';
    return w.t.app.inject({
      method: attack.method,
      url: attack.url,
      headers,
      ...(attack.raw !== undefined
        ? { payload: attack.raw }
        : attack.body !== undefined
          ? {
              payload: JSON.stringify(attack.body),
              headers: { ...headers, 'content-type': 'application/json' },
            }
          : {}),
    });
  };

  it('holds at least 30 cases', () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(30);
  });

  it.each(CORPUS)('%s → %i', async (_name, attack, status) => {
    const res = await send(attack);
    expect(res.statusCode, res.body).toBe(status);
    const body = res.json();
    expect(body).toMatchObject({
      success: false,
      message: expect.any(String),
      code: expect.any(String),
    });
    expect(body).not.toHaveProperty('data');
    for (const secret of secrets) expect(res.body).not.toContain(secret);
  });

  it.each(HARMLESS_VALUES)('treats %s as a plain value: 200 and no rows', async (_name, value) => {
    const res = await send(get(where(value)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, data: [], count: 0 });
  });

  it('leaves every table in place and the API answering afterwards', async () => {
    expect(await tableCounts()).toEqual(countsBefore);
    const mine = await send(get(tasks({ columns: 'prompt', orderBy: 'prompt' })));
    expect(mine.json().data).toEqual([
      { prompt: 'A fox crossing snow' },
      { prompt: 'A lighthouse at dawn' },
      { prompt: 'Waves over a harbour wall' },
    ]);
  });
});
