/**
 * The blog's pages, built apart from the rest of the site so that publishing does not grow with
 * the blog: /blog/{slug} of every published post, and the pages every publish changes (the list
 * pages, both languages' feeds and the sitemap), one `astro build` of astro.articles.config.mjs.
 * Each release keeps an index (articles.json, beside its manifest, never served) of the post
 * digest each article page shows and of the list files; a build links the live release's page of
 * every post whose digest is unchanged and renders only the others, in batches of `batchSize`
 * posts, so neither the build's memory nor the server's grows with the number of posts. The first
 * batch (or a batch of no articles, when none changed) also renders the list files, from the list
 * form of every post (the posts snapshot), so a publish makes its article, the lists, the feeds
 * and the sitemap live in one release. Pages of another set of site sources (`key`) are never
 * reused: a deploy renders them all.
 */
import {
  copyFile,
  link,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import type { PostDetail, PostsSnapshot } from '../../contracts/blog.ts';
import { forEachLimited } from '../../core/concurrency.ts';
import { blogPath } from '../../../shared/blog.ts';
import type { Locale } from '../../../shared/locales.ts';
import { ARTICLE_INDEX, inlineScriptHashes, listFiles } from './release.ts';

/** What the article pages are made from: the blog's published posts. */
export interface ArticleSource {
  /** slug → digest of what the post's page shows, and its language, for every published post. */
  pageDigests(): Promise<Map<string, PageDigest>>;
  /** These published posts, whole. */
  pagePosts(slugs: string[]): Promise<PostDetail[]>;
}

/** What a post's page shows, in short, and the language (so the folder) its page is in. */
export interface PageDigest {
  digest: string;
  locale: Locale;
}

/** What a release's blog pages were built from. */
export interface ArticleIndex {
  /** The site sources and settings the pages were rendered with. */
  key: string;
  /** The /_astro/ files the blog pages load. */
  assets: string[];
  /** CSP hashes of the blog pages' inline scripts. */
  scriptHashes: string[];
  /** page file (articlePageFile) → digest of the post it shows. */
  pages: Record<string, string>;
  /** The list pages, feeds and sitemap: rendered again by every build of the blog's pages. */
  lists?: string[];
}

/**
 * Renders the article pages of the posts in `snapshotFile` into `outDir` (an `astro build`) and,
 * when `listSnapshot` names the list form of every post, the list pages, feeds and sitemap too.
 */
export type ArticleRenderer = (
  snapshotFile: string,
  outDir: string,
  listSnapshot: string | null,
) => Promise<void>;

/** The release file of a post's page: `blog/{slug}.html`, `zh/blog/{slug}.html`. */
const articlePageFile = (slug: string, locale: Locale) =>
  `${blogPath(locale).slice(1)}/${slug}.html`;

export async function readArticleIndex(dir: string): Promise<ArticleIndex | null> {
  try {
    return JSON.parse(await readFile(path.join(dir, ARTICLE_INDEX), 'utf8')) as ArticleIndex;
  } catch {
    return null;
  }
}

/** Every file of a release that its blog build made (and the next one replaces). */
export function blogFiles(index: ArticleIndex | null): Set<string> {
  return new Set([...Object.keys(index?.pages ?? {}), ...(index?.lists ?? [])]);
}

const LINKS_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']);

/** `to` becomes the same file as `from` (a hard link), or a copy where links cannot be made. */
export async function linkOrCopy(from: string, to: string): Promise<void> {
  try {
    await link(from, to);
  } catch (error) {
    if (!LINKS_UNSUPPORTED.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    await copyFile(from, to);
  }
}

/** Moves a file, by copy and delete across file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

/** What a build of the blog's pages will do, known before any file is written. */
export interface ArticlePlan {
  digests: Map<string, PageDigest>;
  /** Slugs whose live page is unchanged: linked, not rendered. */
  reuse: string[];
  /** Slugs to render. */
  render: string[];
  /** Whether the live release has article pages this build leaves out (unpublished, moved). */
  drops: boolean;
}

/** Compares the published posts with the live release's pages (of the same `key` only). */
export async function planArticlePages(
  source: ArticleSource,
  liveIndex: ArticleIndex | null,
  key: string,
): Promise<ArticlePlan> {
  const digests = await source.pageDigests();
  const index = liveIndex?.key === key ? liveIndex : null;
  const reuse: string[] = [];
  const render: string[] = [];
  const kept = new Set<string>();
  for (const [slug, { digest, locale }] of digests) {
    const file = articlePageFile(slug, locale);
    if (index?.pages[file] === digest) {
      reuse.push(slug);
      kept.add(file);
    } else render.push(slug);
  }
  const drops = Object.keys(liveIndex?.pages ?? {}).some((file) => !kept.has(file));
  return { digests, reuse, render, drops };
}

export interface ArticleBuildOptions {
  /** The release being built; in DATA_DIR, so the live release's pages can be linked. */
  dir: string;
  /** The live release and its index, whose unchanged pages are linked, not rendered. */
  live: { dir: string; index: ArticleIndex | null } | null;
  key: string;
  source: ArticleSource;
  render: ArticleRenderer;
  /** The list form of every published post: the list pages, feeds and sitemap are its. */
  listSnapshot: string;
  /** A folder for each batch's snapshot and output (inside the project: see service.ts). */
  scratch: string;
  /** What to do, when already planned (planArticlePages with the same live index and key). */
  plan?: ArticlePlan;
  /** Posts per render (default 1,000: about 0.6 GB, under the main build's peak). */
  batchSize?: number;
}

export interface ArticleBuildResult {
  index: ArticleIndex;
  /** Pages rendered, and pages linked from the live release. */
  rendered: number;
  reused: number;
}

/**
 * Writes every published post's page into `opts.dir`, rendering only the changed ones, and the
 * list pages, feeds and sitemap. The files of the site part must be there already: a list file
 * the site build made too is an error (a route in both builds).
 */
export async function buildArticlePages(opts: ArticleBuildOptions): Promise<ArticleBuildResult> {
  const { dir, live, key } = opts;
  const plan = opts.plan ?? (await planArticlePages(opts.source, live?.index ?? null, key));
  const { digests } = plan;
  const liveIndex = live?.index?.key === key ? live.index : null;
  const locales = new Set([...digests.values()].map((page) => page.locale));
  for (const locale of locales) {
    await mkdir(path.join(dir, path.dirname(articlePageFile('x', locale))), { recursive: true });
  }
  const pages: Record<string, string> = {};
  const toRender = [...plan.render];
  await forEachLimited(plan.reuse, 16, async (slug) => {
    const { digest, locale } = digests.get(slug)!;
    const file = articlePageFile(slug, locale);
    try {
      await linkOrCopy(path.join(live!.dir, file), path.join(dir, file));
      pages[file] = digest;
    } catch {
      toRender.push(slug); // The live page is gone (a pruned release): render it again.
    }
  });
  const reused = Object.keys(pages).length;
  const assets = new Set<string>();
  const scriptHashes = new Set<string>();
  if (reused > 0 && liveIndex) {
    for (const asset of liveIndex.assets) {
      const target = path.join(dir, asset);
      if (await exists(target)) continue;
      await mkdir(path.dirname(target), { recursive: true });
      await linkOrCopy(path.join(live!.dir, asset), target);
      assets.add(asset);
    }
    for (const hash of liveIndex.scriptHashes) scriptHashes.add(hash);
  }

  const batchSize = opts.batchSize ?? 1000;
  toRender.sort();
  // The list files come with the first batch, or alone when no page changed.
  const batches = Math.max(1, Math.ceil(toRender.length / batchSize));
  let lists: string[] = [];
  try {
    for (let n = 0; n < batches; n++) {
      const batch = toRender.slice(n * batchSize, (n + 1) * batchSize);
      const posts = batch.length > 0 ? await opts.source.pagePosts(batch) : [];
      const rendered = await renderBatch(opts, posts, n, n === 0 ? opts.listSnapshot : null);
      for (const file of rendered.assets) assets.add(file);
      for (const hash of rendered.scriptHashes) scriptHashes.add(hash);
      for (const slug of rendered.slugs) {
        const page = digests.get(slug)!;
        pages[articlePageFile(slug, page.locale)] = page.digest;
      }
      if (n === 0) lists = rendered.lists;
    }
  } finally {
    await rm(opts.scratch, { recursive: true, force: true });
  }
  const index: ArticleIndex = {
    key,
    assets: [...assets].sort(),
    scriptHashes: [...scriptHashes].sort(),
    pages,
    lists,
  };
  await writeFile(path.join(dir, ARTICLE_INDEX), JSON.stringify(index));
  return { index, rendered: Object.keys(pages).length - reused, reused };
}

/**
 * One `astro build` of a batch of posts (and, with `listSnapshot`, of the list files); its pages
 * and assets move into the release.
 */
async function renderBatch(
  opts: ArticleBuildOptions,
  posts: PostDetail[],
  n: number,
  listSnapshot: string | null,
): Promise<{ slugs: string[]; assets: string[]; scriptHashes: string[]; lists: string[] }> {
  const work = path.join(opts.scratch, `articles-${n}`);
  const snapshotFile = path.join(work, 'posts.json');
  const outDir = path.join(work, 'out');
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const snapshot: PostsSnapshot = { generatedAt: '', posts, redirects: {} };
    await writeFile(snapshotFile, JSON.stringify(snapshot));
    await opts.render(snapshotFile, outDir, listSnapshot);
    const slugs: string[] = [];
    const pageFiles: string[] = [];
    for (const post of posts) {
      const file = articlePageFile(post.slug, post.locale);
      // A post the build skipped (it logs why) has no page: the server answers its address.
      if (!(await exists(path.join(outDir, file)))) continue;
      await moveFile(path.join(outDir, file), path.join(opts.dir, file));
      slugs.push(post.slug);
      pageFiles.push(file);
    }
    const assets: string[] = [];
    const astroDir = path.join(outDir, '_astro');
    for (const name of await readdir(astroDir).catch(() => [] as string[])) {
      const file = `_astro/${name}`;
      assets.push(file);
      const target = path.join(opts.dir, file);
      if (await exists(target)) continue; // content-hashed names: the same bytes
      await mkdir(path.dirname(target), { recursive: true });
      await moveFile(path.join(astroDir, name), target);
    }
    await rm(astroDir, { recursive: true, force: true });
    // What is left is the list files (only a batch given the list snapshot renders any).
    const lists = await listFiles(outDir).catch(() => [] as string[]);
    for (const file of lists) {
      const target = path.join(opts.dir, file);
      if (await exists(target)) {
        throw new Error(`The blog build wrote ${file}, which the site build has too.`);
      }
      await mkdir(path.dirname(target), { recursive: true });
      await moveFile(path.join(outDir, file), target);
    }
    const htmlFiles = [...pageFiles, ...lists];
    return {
      slugs,
      assets,
      scriptHashes: await inlineScriptHashes(opts.dir, htmlFiles),
      lists,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
