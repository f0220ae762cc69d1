/**
 * The server does not hold every post's body (issue 19, item 5): the public list and the build's
 * snapshot carry only what a list shows, an article is read by its slug, and reading posts does
 * not make the live release stale (a restart after a day of readers does not rebuild).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostDetail } from '../../server/contracts/blog.ts';
import { cutExcerpt, htmlText } from '../../server/domains/blog/service.ts';
import { cardExcerpt } from '../../site/lib/blog.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

/** A stand-in for `astro build`: the article source is what these tests look at. */
async function renderSite(outDir: string) {
  await mkdir(outDir, { recursive: true });
  await writeFile(path.join(outDir, 'index.html'), '<!doctype html><title>Home</title>');
}

describe.each(databaseKinds)('article reads on %s', (kind) => {
  let t: TestApp;
  let token: string;
  const long = `<p>${'Plan the shot, then the sound. '.repeat(300)}</p><p>The very end.</p>`;

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { SERVE_SITE: 'true', BLOG_EDITORS: 'ed@example.com' },
      deps: { siteRenderer: renderSite, publishDebounceMs: 3_600_000 },
    });
    token = (await signInLocal(t.app, 'ed@example.com', 'Ed')).token;
  }, 60_000);
  afterAll(() => t.close());

  const save = async (payload: object, id?: string) => {
    const res = await t.app.inject({
      method: id ? 'PUT' : 'POST',
      url: id ? `/api/blog/admin/posts/${id}` : '/api/blog/admin/posts',
      headers: bearer(token),
      payload: { status: 'published', ...payload },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return res.json().data as { id: string; slug: string };
  };

  it('the build snapshot lists posts without their bodies, with the same card text', async () => {
    const own = await save({ title: 'Has its own excerpt', excerpt: 'Short.', content: long });
    const bare = await save({ title: 'Has no excerpt', content: long });
    const list = await t.app.blog.snapshot();
    const whole = await t.app.blog.snapshot('whole');
    const find = (posts: PostDetail[], slug: string) => posts.find((p) => p.slug === slug)!;

    expect(find(list.posts, own.slug).content).toBe('');
    const bareListed = find(list.posts, bare.slug).content;
    expect(bareListed.length).toBeLessThanOrEqual(4000);
    expect(bareListed).not.toMatch(/<[^>]*$/); // no tag cut in half
    expect(find(whole.posts, bare.slug).content).toContain('The very end.');
    for (const slug of [own.slug, bare.slug]) {
      expect(cardExcerpt(find(list.posts, slug))).toBe(cardExcerpt(find(whole.posts, slug)));
    }
    // The public list answers from the same summaries.
    const listed = (await t.app.inject({ url: '/api/blog/posts?limit=50' })).json().data.posts;
    expect(listed.find((p: { slug: string }) => p.slug === bare.slug).excerpt).toBe(
      cutExcerpt(htmlText(long)),
    );
  });

  it('an article is read whole by its slug, and an edit shows at once', async () => {
    const post = await save({ title: 'Read me whole', content: long });
    const first = await t.app.inject({ url: `/api/blog/posts/${post.slug}` });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.content).toContain('The very end.');
    await save({ title: 'Read me whole', content: '<p>Rewritten.</p>' }, post.id);
    const second = (await t.app.inject({ url: `/api/blog/posts/${post.slug}` })).json().data;
    expect(second.content).toBe('<p>Rewritten.</p>');
    const views = await t.app.inject({ method: 'POST', url: `/api/blog/posts/${post.slug}/view` });
    expect(views.json().data.view_count).toBe(1);
    const third = (await t.app.inject({ url: `/api/blog/posts/${post.slug}` })).json().data;
    expect(third.view_count).toBe(1);
    expect((await t.app.inject({ url: '/api/blog/posts/no-such-post' })).statusCode).toBe(404);
  });

  it('views do not make the live release stale; an edit does', async () => {
    const post = await save({ title: 'Much read', content: '<p>Popular.</p>' });
    await t.app.writeSnapshot();
    const before = await t.app.siteBuilder!.sourceHash();
    for (let i = 0; i < 3; i++) {
      await t.app.inject({ method: 'POST', url: `/api/blog/posts/${post.slug}/view` });
    }
    await t.app.writeSnapshot();
    expect(await t.app.siteBuilder!.sourceHash()).toBe(before);
    await save({ title: 'Much read', content: '<p>Popular, and edited.</p>' }, post.id);
    await t.app.writeSnapshot();
    expect(await t.app.siteBuilder!.sourceHash()).not.toBe(before);
  });
});
