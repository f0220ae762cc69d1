/**
 * Article pages are built apart from the rest of the site (issue 19, item 5): a build renders
 * only the pages of posts whose digest changed and links the live release's others; a quick
 * release (`buildChangedPages`) makes just the changed pages live; pages of other site sources
 * are never reused. `astro build` is replaced by stand-ins that record what they were asked to
 * render; everything after the render (links, index, manifest, switch) is the real code.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostDetail, PostsSnapshot } from '../../server/contracts/blog.ts';
import { readArticleIndex } from '../../server/domains/site-build/article-pages.ts';
import { readManifest, siteDirs } from '../../server/domains/site-build/release.ts';
import { createSiteBuilder } from '../../server/domains/site-build/service.ts';

const quiet = { info() {}, error() {} };

function post(slug: string, title: string, locale: PostDetail['locale'] = 'en'): PostDetail {
  return {
    id: slug,
    slug,
    locale,
    title,
    excerpt: '',
    content: `<p>${title}</p>`,
    featured_image: null,
    author_name: 'Ed',
    author_avatar: null,
    published_at: '2026-11-01T00:00:00.000Z',
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    view_count: 0,
    tags: [],
    meta_title: null,
    meta_description: null,
    translations: [],
  };
}

/** Where the stand-in render writes a post's page, as Astro's pages do (/blog, /zh/blog). */
const folder = (p: PostDetail) => (p.locale === 'en' ? 'blog' : 'zh/blog');

describe('article pages built apart', () => {
  let work: string;
  let root: string;
  let dataDir: string;
  /** The blog: slug → post; a post's digest is its title. */
  let posts: Map<string, PostDetail>;
  /** Slugs each article render was asked for, in order. */
  let renders: string[][];
  let mainRenders: number;

  function builder(opts: { failArticles?: boolean } = {}) {
    return createSiteBuilder({
      dataDir,
      projectRoot: root,
      publicSiteUrl: 'https://example.test',
      log: quiet,
      async render(outDir) {
        mainRenders += 1;
        await mkdir(path.join(outDir, 'blog'), { recursive: true });
        await mkdir(path.join(outDir, '_astro'), { recursive: true });
        const titles = [...posts.values()].map((p) => p.title).join(', ');
        await writeFile(path.join(outDir, 'blog.html'), `<title>Blog</title><p>${titles}</p>`);
        await writeFile(path.join(outDir, 'index.html'), '<title>Home</title>');
        await writeFile(path.join(outDir, '_astro', 'site.1.css'), 'body{}');
      },
      async renderArticles(snapshotFile, outDir) {
        if (opts.failArticles) throw new Error('astro build exited with 1');
        const snapshot = JSON.parse(await readFile(snapshotFile, 'utf8')) as PostsSnapshot;
        renders.push(snapshot.posts.map((p) => p.slug).sort());
        await mkdir(path.join(outDir, 'blog'), { recursive: true });
        await mkdir(path.join(outDir, 'zh', 'blog'), { recursive: true });
        await mkdir(path.join(outDir, '_astro'), { recursive: true });
        await writeFile(path.join(outDir, '_astro', 'article.9.css'), '.prose{}');
        for (const p of snapshot.posts) {
          await writeFile(
            path.join(outDir, folder(p), `${p.slug}.html`),
            `<title>${p.title}</title><script>go("${p.slug}")</script>`,
          );
        }
      },
      articles: {
        pageDigests: async () =>
          new Map(
            [...posts.values()].map((p) => [
              p.slug,
              { digest: `${p.locale}:${p.title}`, locale: p.locale },
            ]),
          ),
        pagePosts: async (slugs) => slugs.map((slug) => posts.get(slug)!),
      },
    });
  }

  const live = async () => path.join(siteDirs(dataDir).root, 'current');
  const page = async (slug: string) => path.join(await live(), 'blog', `${slug}.html`);
  const inode = async (file: string) => (await lstat(file)).ino;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'article-pages-'));
    root = path.join(work, 'project');
    dataDir = path.join(work, 'data');
    await mkdir(path.join(root, 'site'), { recursive: true });
    await writeFile(path.join(root, 'site', 'page.astro'), 'v1');
    posts = new Map(['a', 'b', 'c'].map((slug) => [slug, post(slug, `Post ${slug}`)]));
    renders = [];
    mainRenders = 0;
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('a first build renders every page; the next renders only the changed one', async () => {
    const site = builder();
    const first = await site.build();
    expect(renders).toEqual([['a', 'b', 'c']]);
    expect(first.files).toEqual(
      expect.arrayContaining(['blog/a.html', 'blog/b.html', 'blog/c.html', '_astro/article.9.css']),
    );
    expect(first.files).not.toContain('articles.json');
    expect(first.inlineScriptHashes).toHaveLength(3);
    const unchanged = await inode(await page('a'));

    posts.set('b', post('b', 'Post b, edited'));
    const second = await site.build();
    expect(renders[1]).toEqual(['b']);
    expect(await readFile(await page('b'), 'utf8')).toContain('Post b, edited');
    // The same file as the previous release's, not a copy: disk grows with changes only.
    expect(await inode(await page('a'))).toBe(unchanged);
    expect(second.inlineScriptHashes).toHaveLength(3);
    // Nothing is left in the project's staging folder.
    const staging = path.join(root, 'node_modules', '.cache', 'site-builds');
    expect(await readdir(staging).catch(() => [])).toEqual([]);
    expect((await readArticleIndex(await live()))!.pages).toEqual({
      'blog/a.html': 'en:Post a',
      'blog/b.html': 'en:Post b, edited',
      'blog/c.html': 'en:Post c',
    });
  });

  it('a quick release makes only the changed pages live, before the list pages', async () => {
    const site = builder();
    await site.build();
    const blogPage = await inode(path.join(await live(), 'blog.html'));
    posts.set('c', post('c', 'Post c, edited'));
    posts.delete('a');
    posts.set('d', post('d', 'Post d'));

    const quick = await site.buildChangedPages();
    expect(quick).not.toBeNull();
    expect(mainRenders).toBe(1); // no `astro build` of the site
    expect(renders.at(-1)).toEqual(['c', 'd']);
    expect(await readFile(await page('d'), 'utf8')).toContain('Post d');
    expect(await readFile(await page('c'), 'utf8')).toContain('Post c, edited');
    await expect(lstat(await page('a'))).rejects.toThrow(); // unpublished: its page is gone
    expect(quick!.files).not.toContain('blog/a.html');
    expect(quick!.files).toContain('blog/d.html');
    // The list page is the previous release's until the full build.
    expect(await inode(path.join(await live(), 'blog.html'))).toBe(blogPage);
    expect((await readManifest(await live()))!.id).toBe(quick!.id);

    const full = await site.build();
    expect(renders).toHaveLength(2); // every page was current: none rendered again
    expect(await readFile(path.join(await live(), 'blog.html'), 'utf8')).toContain('Post d');
    expect(full.files).toContain('blog/d.html');
  });

  it("a Chinese post's page lives under zh/blog/, and moves when its language changes", async () => {
    const site = builder();
    posts.set('d', post('d', '帖子 d', 'zh-CN'));
    const first = await site.build();
    expect(first.files).toEqual(expect.arrayContaining(['zh/blog/d.html', 'blog/a.html']));
    expect(first.files).not.toContain('blog/d.html');
    const chinese = await inode(path.join(await live(), 'zh', 'blog', 'd.html'));

    // Unchanged, it is linked from the live release like any other page.
    posts.set('a', post('a', 'Post a, edited'));
    await site.buildChangedPages();
    expect(renders.at(-1)).toEqual(['a']);
    expect(await inode(path.join(await live(), 'zh', 'blog', 'd.html'))).toBe(chinese);

    // Now in English: rendered again, at /blog/d, and gone from /zh/blog/.
    posts.set('d', post('d', 'Post d'));
    const moved = await site.buildChangedPages();
    expect(renders.at(-1)).toEqual(['d']);
    expect(moved!.files).toContain('blog/d.html');
    expect(moved!.files).not.toContain('zh/blog/d.html');
    expect(await readFile(await page('d'), 'utf8')).toContain('Post d');
  });

  it('nothing changed: no quick release', async () => {
    const site = builder();
    await site.build();
    expect(await site.buildChangedPages()).toBeNull();
    expect(renders).toHaveLength(1);
  });

  it('other site sources: every page is rendered again, and no quick release is made', async () => {
    const site = builder();
    await site.build();
    await writeFile(path.join(root, 'site', 'page.astro'), 'v2');
    posts.set('a', post('a', 'Post a, edited'));
    expect(await site.buildChangedPages()).toBeNull();
    await site.build();
    expect(renders.at(-1)).toEqual(['a', 'b', 'c']);
  });

  it('a failed article render keeps the previous release live', async () => {
    await builder().build();
    const before = (await readManifest(await live()))!.id;
    posts.set('a', post('a', 'Post a, edited'));
    await expect(builder({ failArticles: true }).buildChangedPages()).rejects.toThrow(/exited/);
    await expect(builder({ failArticles: true }).build()).rejects.toThrow(/exited/);
    expect((await readManifest(await live()))!.id).toBe(before);
    expect(await readFile(await page('a'), 'utf8')).toContain('Post a<');
  });
});
