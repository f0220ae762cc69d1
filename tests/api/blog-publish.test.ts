/**
 * Publishing with real `astro build`s: a published post becomes a pre-rendered page, quick edits
 * coalesce into one extra build, and a broken build leaves the previous release live.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLiveRelease } from '../../server/domains/site-build/static-site.ts';
import { createPublisher } from '../../server/domains/site-build/publisher.ts';
import { siteDirs } from '../../server/domains/site-build/release.ts';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';

const DEBOUNCE_MS = 300;

describe('publishing rebuilds the static site', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp('pglite', {
      env: { SERVE_SITE: 'true', BLOG_EDITORS: 'pub@example.com' },
      deps: { publishDebounceMs: DEBOUNCE_MS },
    });
    token = (await signInLocal(t.app, 'pub@example.com', 'Pub Lisher')).token;
    await t.app.writeSnapshot();
    await t.app.siteBuilder!.build();
    await loadLiveRelease(t.dataDir, t.app.siteRelease);
  }, 120_000);
  afterAll(() => t.close());

  const save = (payload: object, id?: string) =>
    t.app.inject({
      method: id ? 'PUT' : 'POST',
      url: id ? `/api/blog/admin/posts/${id}` : '/api/blog/admin/posts',
      headers: bearer(token),
      payload: { status: 'published', tags: ['news'], ...payload },
    });

  it('serves a published post as a pre-rendered page within the debounce plus one build', async () => {
    const builds = t.app.publisher.buildCount();
    const started = Date.now();
    const post = (
      await save({ title: 'Fresh from the press', content: '<p>Printed at dawn.</p>' })
    ).json().data;
    // Before the rebuild, the article shell answers (the page loads the post from the API).
    const pending = await t.app.inject({ url: `/blog/${post.slug}` });
    expect(pending.statusCode).toBe(200);
    expect(pending.body).not.toContain('Printed at dawn.');
    expect(
      (await t.app.inject({ url: '/api/blog/admin/build-status', headers: bearer(token) })).json()
        .data.state,
    ).toMatch(/queued|building/);

    await t.app.publisher.idle();
    expect(t.app.publisher.buildCount()).toBe(builds + 1);
    const page = await t.app.inject({ url: `/blog/${post.slug}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Printed at dawn.');
    expect(page.body).toMatch(/#(<!-- -->)?news/);
    expect(page.headers['content-security-policy']).toMatch(/frame-ancestors 'self'/);
    const status = (
      await t.app.inject({ url: '/api/blog/admin/build-status', headers: bearer(token) })
    ).json().data;
    expect(status).toMatchObject({ state: 'live', error: null });
    expect(Date.now() - started).toBeLessThan(DEBOUNCE_MS + 30_000);
    const rss = await t.app.inject({ url: '/rss.xml' });
    expect(rss.body).toContain('Fresh from the press');
    // Built apart from the rest of the site, the article is in its sitemap all the same.
    const sitemap = await t.app.inject({ url: '/sitemap-0.xml' });
    expect(sitemap.body).toContain(`/blog/${post.slug}</loc>`);
  }, 60_000);

  it('two quick edits make one extra build: their page, the list and the feed go live together', async () => {
    // The post of the first test is left alone here: its page must not be rendered again.
    const other = (await t.app.inject({ url: '/api/blog/posts' })).json().data.posts[0].slug;
    const post = (await save({ title: 'Edited twice', content: '<p>First draft.</p>' })).json()
      .data;
    await t.app.publisher.idle();
    const builds = t.app.publisher.buildCount();
    const pageFile = (slug: string) =>
      path.join(siteDirs(t.dataDir).current, 'blog', `${slug}.html`);
    const untouched = (await stat(pageFile(other))).ino;
    const siteFile = path.join(siteDirs(t.dataDir).current, 'pricing.html');
    const site = (await stat(siteFile)).ino;

    // Watch each release go live: the one release the edits make shows the edited page, the
    // list card and the feed item at once.
    const seen: { page: string; list: string; feed: string }[] = [];
    let watching = true;
    let last = t.app.siteRelease.id;
    const look = async () => {
      if (t.app.siteRelease.id === last) return;
      last = t.app.siteRelease.id;
      const [page, list, feed] = await Promise.all([
        t.app.inject({ url: `/blog/${post.slug}` }),
        t.app.inject({ url: '/blog' }),
        t.app.inject({ url: '/rss.xml' }),
      ]);
      seen.push({ page: page.body, list: list.body, feed: feed.body });
    };
    const watch = (async () => {
      while (watching) {
        await look();
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    // The list card and the feed item show the start of the body (the post has no excerpt).
    await save({ title: 'Edited twice', content: '<p>Second take.</p>' }, post.id);
    await save({ title: 'Edited twice', content: '<p>Final words.</p>' }, post.id);
    await t.app.publisher.idle();
    watching = false;
    await watch;
    await look(); // the release's switch, just before idle() returned

    expect(t.app.publisher.buildCount()).toBe(builds + 1);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.page).toContain('Final words.');
    expect(seen[0]!.list).toContain('Final words.');
    expect(seen[0]!.feed).toContain('Final words.');
    // The same files as before the edits: linked from the previous release, not rendered again
    // (the article of another post, and the site's pages: no build of the site ran).
    expect((await stat(pageFile(other))).ino).toBe(untouched);
    expect((await stat(siteFile)).ino).toBe(site);
    // Every script and stylesheet the page and the list load is in the release they went live with.
    const assets = [
      ...(seen[0]!.page + seen[0]!.list).matchAll(/(?:href|src)="(\/_astro\/[^"]+)"/g),
    ].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      expect((await t.app.inject({ url: asset })).statusCode, asset).toBe(200);
    }
  }, 90_000);

  it('a renamed republished post answers its old address with a 301', async () => {
    const post = (await save({ title: 'Old name', content: '<p>Same body.</p>' })).json().data;
    await save({ title: 'New name', content: '<p>Same body.</p>' }, post.id);
    await t.app.publisher.idle();
    const old = await t.app.inject({ url: '/blog/old-name' });
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/blog/new-name');
    expect((await t.app.inject({ url: '/blog/never-existed' })).statusCode).toBe(404);
  }, 60_000);

  it('a broken build keeps the previous release live and records the error', async () => {
    const live = t.app.siteRelease.id;
    const snapshotPath = path.join(siteDirs(t.dataDir).root, 'posts-snapshot.json');
    const good = await readFile(snapshotPath, 'utf8');
    const errors: string[] = [];
    const broken = createPublisher({
      builder: t.app.siteBuilder,
      // A corrupt snapshot makes the content loader, and so the build, fail.
      writeSnapshot: () => writeFile(snapshotPath, '{ this is not json'),
      debounceMs: 10,
      log: { info() {}, error: (o: object) => errors.push(JSON.stringify(o)) },
    });
    broken.schedule();
    await broken.idle();
    expect(broken.status().error).toMatch(/astro build exited/);
    expect(errors).toHaveLength(1);
    expect(t.app.siteRelease.id).toBe(live);
    const home = await t.app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    await writeFile(snapshotPath, good);
  }, 60_000);
});
