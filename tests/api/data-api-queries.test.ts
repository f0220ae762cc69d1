/**
 * The data API doing its job: filtering with each operator, ordering, paging, column choice,
 * posts written through the blog's rules, users editing their own name and picture, and the
 * RPC functions.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { databaseKinds } from '../helpers/database.ts';
import { createDataApiWorld, dataApi, type DataApiWorld } from './data-api-fixtures.ts';

type Row = Record<string, unknown>;

describe.each(databaseKinds)('data API on %s', (kind) => {
  let w: DataApiWorld;
  beforeAll(async () => {
    w = await createDataApiWorld(kind);
  });
  afterAll(() => w.t.close());

  const annTasks = async (query: Record<string, unknown>) => {
    const res = await dataApi(w.t, w.ann.token, 'GET', '/api/db/video_tasks', query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { success: true; data: Row[]; count: number };
  };
  const prompts = (rows: Row[]) => rows.map((r) => r.prompt).sort();

  describe('GET /api/db/{table} where', () => {
    it.each<[string, object, string[]]>([
      ['equality', { status: 'completed' }, ['A lighthouse at dawn']],
      ['eq', { status: { eq: 'pending' } }, ['Waves over a harbour wall']],
      [
        'neq',
        { status: { neq: 'completed' } },
        ['A fox crossing snow', 'Waves over a harbour wall'],
      ],
      ['gt', { progress: { gt: 40 } }, ['A lighthouse at dawn']],
      ['gte', { progress: { gte: 40 } }, ['A fox crossing snow', 'A lighthouse at dawn']],
      ['lt', { progress: { lt: 40 } }, ['Waves over a harbour wall']],
      ['lte', { progress: { lte: 40 } }, ['A fox crossing snow', 'Waves over a harbour wall']],
      [
        'in',
        { status: { in: ['failed', 'pending'] } },
        ['A fox crossing snow', 'Waves over a harbour wall'],
      ],
      ['like', { prompt: { like: 'A %' } }, ['A fox crossing snow', 'A lighthouse at dawn']],
      [
        'several operators on one column',
        { progress: { gt: 0, lt: 100 } },
        ['A fox crossing snow'],
      ],
      ['several columns (AND)', { status: 'completed', progress: 100 }, ['A lighthouse at dawn']],
      [
        'null equality',
        { completed_at: null },
        ['A fox crossing snow', 'A lighthouse at dawn', 'Waves over a harbour wall'],
      ],
      ['not null', { completed_at: { neq: null } }, []],
      ['timestamps', { created_at: { lt: '2000-01-01T00:00:00Z' } }, []],
    ])('filters with %s', async (_name, where, expected) => {
      const body = await annTasks({ where });
      expect(prompts(body.data)).toEqual(expected);
      expect(body.count).toBe(expected.length);
    });

    it('never widens the own-rows filter: asking for another user matches nothing', async () => {
      const body = await annTasks({ where: { user_id: w.bob.user.id } });
      expect(body.data).toEqual([]);
      const byId = await annTasks({ where: { id: { in: w.tasks.bob } } });
      expect(byId.data).toEqual([]);
    });
  });

  describe('GET /api/db/{table} columns, ordering and paging', () => {
    it('returns only the asked columns, timestamps as ISO 8601 text', async () => {
      const body = await annTasks({ columns: 'id, prompt,created_at', limit: 1 });
      expect(Object.keys(body.data[0]!).sort()).toEqual(['created_at', 'id', 'prompt']);
      expect(body.data[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('hides what a user may not read: no lease, provider or input image columns', async () => {
      const body = await annTasks({});
      for (const row of body.data) {
        expect(Object.keys(row)).not.toEqual(
          expect.arrayContaining(['provider', 'lease_owner', 'input_image']),
        );
        expect(row).not.toHaveProperty('provider');
        expect(row).not.toHaveProperty('provider_job_id');
      }
    });

    it.each([
      [
        'prompt',
        true,
        ['A fox crossing snow', 'A lighthouse at dawn', 'Waves over a harbour wall'],
      ],
      [
        'prompt',
        false,
        ['Waves over a harbour wall', 'A lighthouse at dawn', 'A fox crossing snow'],
      ],
      [
        'progress',
        true,
        ['Waves over a harbour wall', 'A fox crossing snow', 'A lighthouse at dawn'],
      ],
    ] as const)('orders by %s (ascending %s)', async (orderBy, ascending, expected) => {
      const body = await annTasks({ orderBy, ascending: String(ascending) });
      expect(body.data.map((r) => r.prompt)).toEqual(expected);
    });

    it('orders newest first without orderBy', async () => {
      const body = await annTasks({ columns: 'created_at' });
      const times = body.data.map((r) => String(r.created_at));
      expect(times).toEqual([...times].sort().reverse());
    });

    it('pages with offset and limit, and counts every match', async () => {
      const pages = [];
      for (const offset of [0, 1, 2, 3]) {
        pages.push(await annTasks({ orderBy: 'prompt', limit: 1, offset }));
      }
      expect(pages.map((p) => p.data.map((r) => r.prompt))).toEqual([
        ['A fox crossing snow'],
        ['A lighthouse at dawn'],
        ['Waves over a harbour wall'],
        [],
      ]);
      expect(pages.every((p) => p.count === 3)).toBe(true);
    });

    it.each([
      [{ limit: '0' }, /limit/],
      [{ limit: '101' }, /limit/],
      [{ offset: '-1' }, /offset/],
      [{ ascending: 'sideways' }, /ascending/],
    ])('refuses paging outside the limits: %j', async (query, message) => {
      const res = await dataApi(w.t, w.ann.token, 'GET', '/api/db/video_tasks', query);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    });

    it('answers 20 rows by default and at most 100', async () => {
      const many = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
            title: `Paging sample ${String(i).padStart(2, '0')}`,
            content: '<p>One of many.</p>',
          }),
        ),
      );
      expect(many.every((r) => r.statusCode === 200)).toBe(true);
      const first = await dataApi(w.t, w.editor.token, 'GET', '/api/db/posts', {
        where: { title: { like: 'Paging sample %' } },
      });
      expect(first.json().data).toHaveLength(20);
      expect(first.json().count).toBe(24);
      const all = await dataApi(w.t, w.editor.token, 'GET', '/api/db/posts', {
        where: { title: { like: 'Paging sample %' } },
        limit: '100',
      });
      expect(all.json().data).toHaveLength(24);
      const removed = await dataApi(w.t, w.editor.token, 'DELETE', '/api/db/posts', {
        where: { title: { like: 'Paging sample %' } },
      });
      expect(removed.json().data).toHaveLength(24);
    });

    it('explains an unknown column with the columns that would work', async () => {
      const res = await dataApi(w.t, w.ann.token, 'GET', '/api/db/users', {
        where: { passwordHash: 'x' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        "Unknown column 'passwordHash' in where. Columns you can filter on: id, email, name, avatar_url, credits, can_manage_blog, created_at.",
      );
    });

    it('refuses a wrongly typed value with 400, not a database error', async () => {
      const res = await dataApi(w.t, w.ann.token, 'GET', '/api/db/video_tasks', {
        where: { progress: 'lots' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(
        `Invalid value "lots" for 'progress' in where.progress: expected a whole number.`,
      );
    });
  });

  describe('posts through the data API keep the blog rules', () => {
    it('shows readers published posts only, editors every post', async () => {
      const anon = await dataApi(w.t, null, 'GET', '/api/db/posts', { columns: 'id,status' });
      expect(anon.json().data.map((p: Row) => p.status)).toEqual(
        anon.json().data.map(() => 'published'),
      );
      expect(anon.json().data.map((p: Row) => p.id)).toContain(w.posts.published.id);
      expect(anon.json().data.map((p: Row) => p.id)).not.toContain(w.posts.draft.id);
      const asDraft = await dataApi(w.t, w.ann.token, 'GET', '/api/db/posts', {
        where: { id: w.posts.draft.id },
      });
      expect(asDraft.json()).toMatchObject({ data: [], count: 0 });
      const editor = await dataApi(w.t, w.editor.token, 'GET', '/api/db/posts', {
        where: { id: w.posts.draft.id },
        columns: 'id,status',
      });
      expect(editor.json().data).toEqual([{ id: w.posts.draft.id, status: 'draft' }]);
    });

    it('creates a post with sanitized content, a slug from the title and the author', async () => {
      const res = await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
        title: 'Colour grading basics',
        content: '<p onclick="steal()">Warm <script>alert(1)</script>tones</p>',
        status: 'draft',
        tags: ['grading'],
      });
      expect(res.statusCode, res.body).toBe(200);
      const [post] = res.json().data;
      expect(post).toMatchObject({
        slug: 'colour-grading-basics',
        status: 'draft',
        author_name: 'Eddie Editor',
        published_at: null,
        tags: ['grading'],
        view_count: 0,
      });
      expect(post.content).toBe('<p>Warm tones</p>');
    });

    it('refuses to set what the blog decides: slug, views, author', async () => {
      for (const column of ['slug', 'view_count', 'author_name']) {
        const res = await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
          title: 'Sneaky',
          content: '<p>x</p>',
          [column]: column === 'view_count' ? 1_000_000 : 'forged',
        });
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toMatch(`You cannot set '${column}' on posts`);
      }
      const missing = await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
        title: 'No body',
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().message).toBe("The field 'content' is required in the new row.");
    });

    it('publishes through PUT: published_at set, slug follows the new title, public cache and site rebuild follow', async () => {
      const schedule = vi.spyOn(w.t.app.publisher, 'schedule');
      const created = (
        await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
          title: 'Working title',
          content: '<p>Draft text.</p>',
        })
      ).json().data[0];
      expect(schedule).not.toHaveBeenCalled();
      const res = await dataApi(w.t, w.editor.token, 'PUT', '/api/db/posts', {
        where: { id: created.id },
        data: {
          title: 'Sound design on a budget',
          status: 'published',
          content: '<p>Record <a href="javascript:alert(1)">room tone</a>.</p>',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const [post] = res.json().data;
      expect(post).toMatchObject({
        id: created.id,
        slug: 'sound-design-on-a-budget',
        status: 'published',
        excerpt: '',
      });
      expect(post.published_at).toEqual(expect.any(String));
      expect(post.content).not.toContain('javascript:');
      expect(schedule).toHaveBeenCalled();
      const publicRead = await w.t.app.inject({ url: '/api/blog/posts/sound-design-on-a-budget' });
      expect(publicRead.statusCode).toBe(200);
      expect(publicRead.json().data.title).toBe('Sound design on a budget');

      // Once published, a plain edit keeps the slug (links stay valid).
      const edited = await dataApi(w.t, w.editor.token, 'PUT', '/api/db/posts', {
        where: { slug: 'sound-design-on-a-budget' },
        data: { excerpt: 'Room tone, foley and silence.' },
      });
      expect(edited.json().data[0]).toMatchObject({
        slug: 'sound-design-on-a-budget',
        excerpt: 'Room tone, foley and silence.',
        content: post.content,
        published_at: post.published_at,
      });
      schedule.mockRestore();
    });

    it('keeps slugs unique when two posts share a title', async () => {
      const a = await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
        title: 'Twin title',
        content: '<p>One.</p>',
      });
      const b = await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
        title: 'Twin title',
        content: '<p>Two.</p>',
      });
      expect(a.json().data[0].slug).toBe('twin-title');
      expect(b.json().data[0].slug).not.toBe('twin-title');
      expect(b.json().data[0].slug).toMatch(/^twin-title-/);
    });

    it('deletes through DELETE, answers the deleted rows, and the post is gone from public reads', async () => {
      const created = (
        await dataApi(w.t, w.editor.token, 'POST', '/api/db/posts', {
          title: 'Short-lived news',
          content: '<p>Soon gone.</p>',
          status: 'published',
        })
      ).json().data[0];
      expect((await w.t.app.inject({ url: `/api/blog/posts/${created.slug}` })).statusCode).toBe(
        200,
      );
      const res = await dataApi(w.t, w.editor.token, 'DELETE', '/api/db/posts', {
        where: { id: created.id },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([expect.objectContaining({ id: created.id })]);
      expect((await w.t.app.inject({ url: `/api/blog/posts/${created.slug}` })).statusCode).toBe(
        404,
      );
    });

    it('refuses PUT and DELETE without a where', async () => {
      for (const [method, body] of [
        ['PUT', { data: { excerpt: 'all of them' }, where: {} }],
        ['DELETE', { where: {} }],
      ] as const) {
        const res = await dataApi(w.t, w.editor.token, method, '/api/db/posts', body);
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('WHERE_REQUIRED');
      }
      const stillThere = await dataApi(w.t, w.editor.token, 'GET', '/api/db/posts', {
        where: { id: w.posts.published.id },
      });
      expect(stillThere.json().data).toHaveLength(1);
    });
  });

  describe('users edit their own name and picture only', () => {
    it('changes name and avatar_url of the own row, which the session then shows', async () => {
      const res = await dataApi(w.t, w.bob.token, 'PUT', '/api/db/users', {
        where: { id: w.bob.user.id },
        data: { name: 'Robert', avatar_url: 'https://images.example.com/bob.png' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual([
        expect.objectContaining({
          id: w.bob.user.id,
          name: 'Robert',
          avatar_url: 'https://images.example.com/bob.png',
          credits: 30,
        }),
      ]);
      const me = await w.t.app.inject({
        url: '/api/auth/user',
        headers: { authorization: `Bearer ${w.bob.token}` },
      });
      expect(me.json().data.user).toMatchObject({ name: 'Robert' });
    });

    it('changes nothing on another user, even when the where names them', async () => {
      const res = await dataApi(w.t, w.bob.token, 'PUT', '/api/db/users', {
        where: { id: w.ann.user.id },
        data: { name: 'Hijacked' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual([]);
      const ann = await dataApi(w.t, w.ann.token, 'GET', '/api/db/users', { columns: 'name' });
      expect(ann.json().data).toEqual([{ name: 'Ann' }]);
    });

    it.each([
      [{ credits: 1_000_000 }, 403, /You cannot set 'credits' on users/],
      [{ can_manage_blog: true }, 403, /You cannot set 'can_manage_blog'/],
      [{ email: 'new@example.com' }, 403, /You cannot set 'email'/],
      [{ password_hash: 'x' }, 400, /Unknown column 'password_hash' in data/],
      [{ avatar_url: 'javascript:alert(1)' }, 400, /avatar_url/],
      [{ name: '   ' }, 400, /name/],
      [{ name: 'x'.repeat(81) }, 400, /name/],
      [{}, 400, /Nothing to write/],
    ])('refuses %j', async (data, status, message) => {
      const res = await dataApi(w.t, w.ann.token, 'PUT', '/api/db/users', {
        where: { id: w.ann.user.id },
        data,
      });
      expect(res.statusCode).toBe(status);
      expect(res.json().message).toMatch(message);
      const ann = await dataApi(w.t, w.ann.token, 'GET', '/api/db/users', {});
      expect(ann.json().data[0]).toMatchObject({
        credits: 150,
        can_manage_blog: false,
        name: 'Ann',
      });
    });

    it('lets an administrator read every customer but change none through this API', async () => {
      const all = await dataApi(w.t, w.admin.token, 'GET', '/api/db/users', {
        where: { email: { like: '%@example.com' } },
        limit: '100',
      });
      expect(all.json().data.map((u: Row) => u.email)).toEqual(
        expect.arrayContaining(['ann@example.com', 'bob@example.com', 'eddie@example.com']),
      );
      for (const data of [{ name: 'Renamed by ops' }, { credits: 0 }]) {
        const res = await dataApi(w.t, w.admin.token, 'PUT', '/api/db/users', {
          where: { id: w.ann.user.id },
          data,
        });
        expect(res.statusCode).toBe(403);
      }
      const ann = await dataApi(w.t, w.ann.token, 'GET', '/api/db/users', {});
      expect(ann.json().data[0]).toMatchObject({ name: 'Ann', credits: 150 });
    });
  });

  describe('POST /api/rpc/{name}', () => {
    const rpc = (token: string | null, name: string, payload?: object) =>
      w.t.app.inject({
        method: 'POST',
        url: `/api/rpc/${name}`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
        ...(payload ? { payload } : {}),
      });

    it('user_credit_summary: own balance and totals that add up to it', async () => {
      const res = await rpc(w.ann.token, 'user_credit_summary', {});
      expect(res.statusCode, res.body).toBe(200);
      const summary = res.json().data;
      expect(summary).toMatchObject({
        user_id: w.ann.user.id,
        balance: 150,
        total_granted: 150,
        total_spent: 0,
        refunds: 0,
        transaction_count: 2,
      });
      expect(summary.last_transaction_at).toMatch(/Z$/);
      expect(summary.total_granted + summary.refunds - summary.total_spent).toBe(summary.balance);
      const noBody = await rpc(w.bob.token, 'user_credit_summary');
      expect(noBody.json().data).toMatchObject({ user_id: w.bob.user.id, balance: 30 });
    });

    it('user_credit_summary: 401 anonymous, 403 for another user, allowed for an admin', async () => {
      expect((await rpc(null, 'user_credit_summary', {})).statusCode).toBe(401);
      const other = await rpc(w.bob.token, 'user_credit_summary', { user_id: w.ann.user.id });
      expect(other.statusCode).toBe(403);
      const admin = await rpc(w.admin.token, 'user_credit_summary', { user_id: w.ann.user.id });
      expect(admin.json().data).toMatchObject({ user_id: w.ann.user.id, balance: 150 });
      const nobody = await rpc(w.admin.token, 'user_credit_summary', {
        user_id: '00000000-0000-4000-8000-000000000000',
      });
      expect(nobody.statusCode).toBe(404);
      const own = await rpc(w.admin.token, 'user_credit_summary', {});
      expect(own.statusCode).toBe(404);
      expect(own.json().message).toMatch(/pass user_id/);
    });

    it('increment_post_views: by slug or id, published posts only, same counter as the blog', async () => {
      const { published, draft } = w.posts;
      const first = await rpc(null, 'increment_post_views', { slug: published.slug });
      expect(first.statusCode, first.body).toBe(200);
      const second = await rpc(w.ann.token, 'increment_post_views', { post_id: published.id });
      expect(second.json().data.view_count).toBe(first.json().data.view_count + 1);
      const viaBlog = await w.t.app.inject({
        method: 'POST',
        url: `/api/blog/posts/${published.slug}/view`,
      });
      expect(viaBlog.json().data.view_count).toBe(second.json().data.view_count + 1);
      for (const args of [{ slug: draft.slug }, { post_id: draft.id }, { slug: 'no-such-post' }]) {
        const res = await rpc(null, 'increment_post_views', args);
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Article not found');
      }
      const both = await rpc(null, 'increment_post_views', { slug: 'a', post_id: draft.id });
      expect(both.statusCode).toBe(400);
      expect(both.json().message).toMatch(/takes \{"slug": "\.\.\."\} or \{"post_id"/);
    });
  });
});
