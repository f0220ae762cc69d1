/**
 * The blog's pages are built apart from the rest of the site (issue 19, item 5; issue 33, items 3
 * and 4): a build renders only the articles whose digest changed and links the live release's
 * others; the list pages, feeds and sitemap are rendered again with them, from the list snapshot,
 * so a publish makes its article and every list that shows it live in one release, without the
 * site's build; a first start makes the site live before the blog's pages; pages of other site
 * sources are never reused. `astro build` is replaced by stand-ins that record what they were
 * asked to render; everything after the render (links, index, manifest, switch) is the real code.
 */
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PostDetail, PostsSnapshot } from '../../server/contracts/blog.ts';
import { readArticleIndex } from '../../server/domains/site-build/article-pages.ts';
import {
  readManifest,
  siteDirs,
  type ReleaseManifest,
} from '../../server/domains/site-build/release.ts';
import { createSiteBuilder, type PreparedSite } from '../../server/domains/site-build/service.ts';

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

/** The stand-in's list pages: two posts a page, as titles. */
const PAGE_SIZE = 2;

describe('the blog pages built apart', () => {
  let work: string;
  let root: string;
  let dataDir: string;
  let listFile: string;
  /** The blog: slug → post; a post's digest is its title (and language). */
  let posts: Map<string, PostDetail>;
  /** Slugs each blog render was asked for, in order, and whether it rendered the lists. */
  let renders: string[][];
  let listRenders: number;
  let mainRenders: number;
  /** Every release that went live, in order. */
  let switched: ReleaseManifest[];

  /** The list snapshot, as the publisher writes it before each build (its list form). */
  const writeListSnapshot = () =>
    writeFile(
      listFile,
      JSON.stringify({
        generatedAt: '',
        redirects: {},
        posts: [...posts.values()].map((p) => ({ ...p, content: '' })),
      } satisfies PostsSnapshot),
    );

  function builder(opts: { failArticles?: boolean } = {}) {
    return createSiteBuilder({
      dataDir,
      projectRoot: root,
      publicSiteUrl: 'https://example.test',
      log: quiet,
      extraSources: [listFile],
      listSnapshot: listFile,
      onSwitch: (manifest) => {
        switched.push(manifest);
      },
      async render(outDir) {
        mainRenders += 1;
        await mkdir(path.join(outDir, 'blog'), { recursive: true });
        await mkdir(path.join(outDir, '_astro'), { recursive: true });
        await writeFile(path.join(outDir, 'index.html'), '<title>Home</title>');
        await writeFile(path.join(outDir, 'blog', 'article-shell.html'), '<title>Shell</title>');
        await writeFile(path.join(outDir, '_astro', 'site.1.css'), 'body{}');
      },
      async renderArticles(snapshotFile, outDir, listSnapshot) {
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
        if (!listSnapshot) return;
        listRenders += 1;
        const listed = (JSON.parse(await readFile(listSnapshot, 'utf8')) as PostsSnapshot).posts;
        const english = listed.filter((p) => p.locale === 'en');
        const titles = (some: PostDetail[]) => some.map((p) => p.title).join(', ');
        await writeFile(path.join(outDir, 'blog.html'), `<p>${titles(english.slice(0, 2))}</p>`);
        for (let page = 2; (page - 1) * PAGE_SIZE < english.length; page++) {
          const shown = english.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
          await mkdir(path.join(outDir, 'blog', 'page'), { recursive: true });
          await writeFile(path.join(outDir, 'blog', 'page', `${page}.html`), titles(shown));
        }
        await writeFile(path.join(outDir, 'rss.xml'), `<rss>${titles(english)}</rss>`);
        const chinese = listed.filter((p) => p.locale === 'zh-CN');
        await writeFile(path.join(outDir, 'zh', 'rss.xml'), `<rss>${titles(chinese)}</rss>`);
        const urls = listed.map((p) => `<loc>/${folder(p)}/${p.slug}</loc>`).join('');
        await writeFile(path.join(outDir, 'sitemap-0.xml'), `<urlset>${urls}</urlset>`);
      },
      articles: {
        pageDigests: async () =>
          new Map(
            [...posts.values()].map((p) => [
              p.slug,
              { digest: `${p.locale}:${p.title}:${p.content}`, locale: p.locale },
            ]),
          ),
        pagePosts: async (slugs) => slugs.map((slug) => posts.get(slug)!),
      },
    });
  }

  const live = () => siteDirs(dataDir).current;
  const page = (slug: string) => path.join(live(), 'blog', `${slug}.html`);
  const liveText = (file: string) => readFile(path.join(live(), file), 'utf8');
  const inode = async (file: string) => (await lstat(file)).ino;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'article-pages-'));
    root = path.join(work, 'project');
    dataDir = path.join(work, 'data');
    listFile = path.join(work, 'posts-snapshot.json');
    await mkdir(path.join(root, 'site'), { recursive: true });
    await writeFile(path.join(root, 'site', 'page.astro'), 'v1');
    posts = new Map(['a', 'b', 'c'].map((slug) => [slug, post(slug, `Post ${slug}`)]));
    renders = [];
    listRenders = 0;
    mainRenders = 0;
    switched = [];
    await writeListSnapshot();
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('a first build renders every page and the lists; the next renders only the changed page', async () => {
    const site = builder();
    const first = await site.build();
    expect(renders).toEqual([['a', 'b', 'c']]);
    expect(first.files).toEqual(
      expect.arrayContaining([
        'blog/a.html',
        'blog/b.html',
        'blog/c.html',
        '_astro/article.9.css',
        'blog.html',
        'blog/page/2.html',
        'rss.xml',
        'zh/rss.xml',
        'sitemap-0.xml',
      ]),
    );
    expect(first.files).not.toContain('articles.json');
    expect(first.inlineScriptHashes).toHaveLength(3);
    expect(first.partial).toBeUndefined();
    const unchanged = await inode(page('a'));

    posts.set('b', post('b', 'Post b, edited'));
    await writeListSnapshot();
    const second = await site.build();
    expect(renders[1]).toEqual(['b']);
    expect(await readFile(page('b'), 'utf8')).toContain('Post b, edited');
    expect(await liveText('blog.html')).toContain('Post b, edited');
    // The same file as the previous release's, not a copy: disk grows with changes only.
    expect(await inode(page('a'))).toBe(unchanged);
    expect(second.inlineScriptHashes).toHaveLength(3);
    // Nothing is left in the project's staging folder.
    const staging = path.join(root, 'node_modules', '.cache', 'site-builds');
    expect(await readdir(staging).catch(() => [])).toEqual([]);
    const index = (await readArticleIndex(live()))!;
    expect(index.pages).toEqual({
      'blog/a.html': 'en:Post a:<p>Post a</p>',
      'blog/b.html': 'en:Post b, edited:<p>Post b, edited</p>',
      'blog/c.html': 'en:Post c:<p>Post c</p>',
    });
    expect(index.lists).toEqual(
      ['blog.html', 'blog/page/2.html', 'rss.xml', 'sitemap-0.xml', 'zh/rss.xml'].sort(),
    );
  });

  it('a publish makes its page, the lists, both feeds and the sitemap live in one release, without the site build', async () => {
    const site = builder();
    await site.build();
    const home = await inode(path.join(live(), 'index.html'));
    posts.set('c', post('c', 'Post c, edited'));
    posts.delete('a');
    posts.set('d', post('d', 'Post d'));
    posts.set('e', post('e', '帖子 e', 'zh-CN'));
    await writeListSnapshot();

    const before = switched.length;
    const release = await site.buildChangedPages();
    expect(release).not.toBeNull();
    expect(switched).toHaveLength(before + 1); // one release, one switch
    expect(mainRenders).toBe(1); // no `astro build` of the site
    expect(renders.at(-1)).toEqual(['c', 'd', 'e']);
    expect(await readFile(page('d'), 'utf8')).toContain('Post d');
    expect(await readFile(page('c'), 'utf8')).toContain('Post c, edited');
    await expect(lstat(page('a'))).rejects.toThrow(); // unpublished: its page is gone
    expect(release!.files).not.toContain('blog/a.html');
    expect(release!.files).toContain('blog/d.html');
    // The lists show the new post and no longer the unpublished one, in the same release.
    const listed = (await liveText('blog.html')) + (await liveText('blog/page/2.html'));
    expect(listed).toContain('Post d');
    expect(listed).not.toContain('Post a');
    expect(await liveText('rss.xml')).toContain('Post d');
    expect(await liveText('zh/rss.xml')).toContain('帖子 e');
    expect(await liveText('sitemap-0.xml')).toContain('<loc>/blog/d</loc>');
    expect(await liveText('sitemap-0.xml')).toContain('<loc>/zh/blog/e</loc>');
    // The site's pages are the previous release's files.
    expect(await inode(path.join(live(), 'index.html'))).toBe(home);
    expect((await readManifest(live()))!.id).toBe(release!.id);
    // It is current: the live release has what the posts are now.
    expect(await site.currentIfFresh()).toMatchObject({ id: release!.id });
    // A list file that came out as it was shares the previous release's bytes.
    posts.set('c', post('c', 'Post c, edited again'));
    await writeListSnapshot();
    const rss = await inode(path.join(live(), 'rss.xml'));
    const zhRss = await inode(path.join(live(), 'zh', 'rss.xml'));
    await site.buildChangedPages();
    expect(await inode(path.join(live(), 'rss.xml'))).not.toBe(rss); // it lists the new title
    expect(await inode(path.join(live(), 'zh', 'rss.xml'))).toBe(zhRss);
  });

  it('a later list page the blog no longer fills is gone from the next release', async () => {
    const site = builder();
    await site.build();
    expect(await liveText('blog/page/2.html')).toContain('Post c');
    posts.delete('c');
    await writeListSnapshot();
    const release = (await site.buildChangedPages())!;
    expect(release.files).not.toContain('blog/page/2.html');
    await expect(lstat(path.join(live(), 'blog', 'page', '2.html'))).rejects.toThrow();
  });

  it("a Chinese post's page lives under zh/blog/, and moves when its language changes", async () => {
    const site = builder();
    posts.set('d', post('d', '帖子 d', 'zh-CN'));
    await writeListSnapshot();
    const first = await site.build();
    expect(first.files).toEqual(expect.arrayContaining(['zh/blog/d.html', 'blog/a.html']));
    expect(first.files).not.toContain('blog/d.html');
    const chinese = await inode(path.join(live(), 'zh', 'blog', 'd.html'));

    // Unchanged, it is linked from the live release like any other page.
    posts.set('a', post('a', 'Post a, edited'));
    await writeListSnapshot();
    await site.buildChangedPages();
    expect(renders.at(-1)).toEqual(['a']);
    expect(await inode(path.join(live(), 'zh', 'blog', 'd.html'))).toBe(chinese);

    // Now in English: rendered again, at /blog/d, and gone from /zh/blog/.
    posts.set('d', post('d', 'Post d'));
    await writeListSnapshot();
    const moved = await site.buildChangedPages();
    expect(renders.at(-1)).toEqual(['d']);
    expect(moved!.files).toContain('blog/d.html');
    expect(moved!.files).not.toContain('zh/blog/d.html');
    expect(await readFile(page('d'), 'utf8')).toContain('Post d');
    expect(await liveText('rss.xml')).toContain('Post d');
  });

  it('nothing changed: no new release', async () => {
    const site = builder();
    await site.build();
    expect(await site.buildChangedPages()).toBeNull();
    expect(renders).toHaveLength(1);
  });

  it('other site sources: every page is rendered again, and no blog release is made', async () => {
    const site = builder();
    await site.build();
    await writeFile(path.join(root, 'site', 'page.astro'), 'v2');
    posts.set('a', post('a', 'Post a, edited'));
    await writeListSnapshot();
    expect(await site.buildChangedPages()).toBeNull();
    await site.build();
    expect(renders.at(-1)).toEqual(['a', 'b', 'c']);
  });

  it('a failed render keeps the previous release live', async () => {
    await builder().build();
    const before = (await readManifest(live()))!.id;
    posts.set('a', post('a', 'Post a, edited'));
    await writeListSnapshot();
    await expect(builder({ failArticles: true }).buildChangedPages()).rejects.toThrow(/exited/);
    await expect(builder({ failArticles: true }).build()).rejects.toThrow(/exited/);
    expect((await readManifest(live()))!.id).toBe(before);
    expect(await readFile(page('a'), 'utf8')).toContain('Post a<');
  });

  describe('ensureCurrent (start-up and each publish)', () => {
    it('on a fresh data directory, the site goes live first, alone, then the blog pages on top', async () => {
      const site = builder();
      const current = await site.ensureCurrent();
      expect(switched).toHaveLength(2);
      const [first, second] = switched as [ReleaseManifest, ReleaseManifest];
      // The first release: the site's pages (and the article shell), no blog page yet.
      expect(first.partial).toBe(true);
      expect(first.files).toContain('index.html');
      expect(first.files).toContain('blog/article-shell.html');
      expect(first.files.filter((f) => /^blog\/[abc]\.html$|blog\.html|rss/.test(f))).toEqual([]);
      // Never taken for current: a start that finds it live builds the blog pages.
      expect(first.sourceHash).not.toBe(await site.sourceHash());
      // The second: the same site files, and every blog page.
      expect(second.partial).toBeUndefined();
      expect(second.files).toEqual(
        expect.arrayContaining([...first.files, 'blog/a.html', 'rss.xml']),
      );
      expect(current.id).toBe(second.id);
      expect(mainRenders).toBe(1);
      expect(listRenders).toBe(1);

      // A second start with nothing changed builds nothing.
      expect((await builder().ensureCurrent()).id).toBe(second.id);
      expect(switched).toHaveLength(2);
    });

    it('with the site unchanged, posts changed meanwhile build only the blog pages', async () => {
      await builder().ensureCurrent();
      // An edit deep in a body: the list form (the snapshot) stays as it was.
      posts.set('b', { ...post('b', 'Post b'), content: '<p>Post b</p><p>More.</p>' });
      const release = await builder().ensureCurrent();
      expect(mainRenders).toBe(1);
      expect(renders.at(-1)).toEqual(['b']);
      expect(await readFile(page('b'), 'utf8')).toContain('Post b');
      expect(release.id).toBe((await readManifest(live()))!.id);
      expect(release.partial).toBeUndefined();
    });

    it('with other site sources, the live release serves until one whole new release replaces it', async () => {
      await builder().ensureCurrent();
      const before = switched.length;
      await writeFile(path.join(root, 'site', 'page.astro'), 'v2');
      const release = await builder().ensureCurrent();
      expect(switched).toHaveLength(before + 1);
      expect(release.partial).toBeUndefined();
      expect(release.files).toEqual(expect.arrayContaining(['index.html', 'blog/a.html']));
      expect(mainRenders).toBe(2);
    });

    it('takes the site build prepared ahead when it was built from the same sources, else builds', async () => {
      const site = builder();
      const prepared = async (key: string, marker: string): Promise<PreparedSite> => {
        const dir = path.join(work, `staged-${marker}`);
        await mkdir(dir, { recursive: true });
        await writeFile(path.join(dir, 'index.html'), `<title>${marker}</title>`);
        return { ready: Promise.resolve({ dir, key }), cancel() {} };
      };
      await site.ensureCurrent({ prepared: await prepared('another key', 'stale') });
      expect(mainRenders).toBe(1); // not the stale one
      expect(await liveText('index.html')).toContain('Home');
      await expect(lstat(path.join(work, 'staged-stale'))).rejects.toThrow(); // removed

      await writeFile(path.join(root, 'site', 'page.astro'), 'v2');
      const key = await site.siteKey();
      await site.ensureCurrent({ prepared: await prepared(key, 'ahead') });
      expect(mainRenders).toBe(1); // taken, not built again
      expect(await liveText('index.html')).toContain('ahead');
      expect(await liveText('blog.html')).toContain('Post a');
    });
  });
});
