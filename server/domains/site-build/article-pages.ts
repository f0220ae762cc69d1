/**
 * Article pages: /blog/{slug} of every published post, built apart from the rest of the site so
 * that publishing does not grow with the blog. Each release keeps an index (articles.json, beside
 * its manifest, never served) of the post digest each page shows; a build links the live
 * release's page of every post whose digest is unchanged and renders only the others, in batches
 * of `batchSize` posts (one `astro build` of astro.articles.config.mjs each), so neither the
 * build's memory nor the server's grows with the number of posts. Pages of another set of site
 * sources (`key`) are never reused: a deploy renders them all.
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
import { ARTICLE_INDEX, inlineScriptHashes } from './release.ts';

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

/** What a release's article pages were built from. */
export interface ArticleIndex {
  /** The site sources and settings the pages were rendered with. */
  key: string;
  /** The /_astro/ files the article pages load. */
  assets: string[];
  /** CSP hashes of the article pages' inline scripts. */
  scriptHashes: string[];
  /** page file (articlePageFile) → digest of the post it shows. */
  pages: Record<string, string>;
}

/** Renders the pages of the posts in `snapshotFile` into `outDir` (an `astro build`). */
export type ArticleRenderer = (snapshotFile: string, outDir: string) => Promise<void>;

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

export interface ArticleBuildOptions {
  /** The release being built; in DATA_DIR, so the live release's pages can be linked. */
  dir: string;
  /** The live release and its index, whose unchanged pages are linked, not rendered. */
  live: { dir: string; index: ArticleIndex | null } | null;
  key: string;
  source: ArticleSource;
  render: ArticleRenderer;
  /** A folder for each batch's snapshot and output (inside the project: see service.ts). */
  scratch: string;
  /** Posts per render (default 1,000: about 0.6 GB, under the main build's peak). */
  batchSize?: number;
}

export interface ArticleBuildResult {
  index: ArticleIndex;
  /** Pages rendered, and pages linked from the live release. */
  rendered: number;
  reused: number;
}

/** Writes every published post's page into `opts.dir`, rendering only the changed ones. */
export async function buildArticlePages(opts: ArticleBuildOptions): Promise<ArticleBuildResult> {
  const { dir, live, key } = opts;
  const digests = await opts.source.pageDigests();
  const liveIndex = live?.index?.key === key ? live.index : null;
  const locales = new Set([...digests.values()].map((page) => page.locale));
  for (const locale of locales) {
    await mkdir(path.join(dir, path.dirname(articlePageFile('x', locale))), { recursive: true });
  }
  const pages: Record<string, string> = {};
  const toRender: string[] = [];
  await forEachLimited([...digests], 16, async ([slug, { digest, locale }]) => {
    const file = articlePageFile(slug, locale);
    if (live && liveIndex?.pages[file] === digest) {
      try {
        await linkOrCopy(path.join(live.dir, file), path.join(dir, file));
        pages[file] = digest;
        return;
      } catch {
        // The live page is gone (a pruned release): render it again.
      }
    }
    toRender.push(slug);
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
  try {
    for (let start = 0; start < toRender.length; start += batchSize) {
      const batch = toRender.slice(start, start + batchSize);
      const posts = await opts.source.pagePosts(batch);
      const rendered = await renderBatch(opts, posts, start / batchSize);
      for (const file of rendered.assets) assets.add(file);
      for (const hash of rendered.scriptHashes) scriptHashes.add(hash);
      for (const slug of rendered.slugs) {
        const page = digests.get(slug)!;
        pages[articlePageFile(slug, page.locale)] = page.digest;
      }
    }
  } finally {
    await rm(opts.scratch, { recursive: true, force: true });
  }
  const index: ArticleIndex = {
    key,
    assets: [...assets].sort(),
    scriptHashes: [...scriptHashes].sort(),
    pages,
  };
  await writeFile(path.join(dir, ARTICLE_INDEX), JSON.stringify(index));
  return { index, rendered: Object.keys(pages).length - reused, reused };
}

/** One `astro build` of a batch of posts; its pages and assets move into the release. */
async function renderBatch(
  opts: ArticleBuildOptions,
  posts: PostDetail[],
  n: number,
): Promise<{ slugs: string[]; assets: string[]; scriptHashes: string[] }> {
  const work = path.join(opts.scratch, `articles-${n}`);
  const snapshotFile = path.join(work, 'posts.json');
  const outDir = path.join(work, 'out');
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  try {
    const snapshot: PostsSnapshot = { generatedAt: '', posts, redirects: {} };
    await writeFile(snapshotFile, JSON.stringify(snapshot));
    await opts.render(snapshotFile, outDir);
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
    return { slugs, assets, scriptHashes: await inlineScriptHashes(opts.dir, pageFiles) };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
