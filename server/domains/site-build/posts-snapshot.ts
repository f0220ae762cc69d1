/**
 * The published-posts snapshot: the one file through which the blog reaches the static build
 * (Astro never opens the database; site/content.config.ts reads this file).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PostsSnapshot } from '../../contracts/blog.ts';
import { siteDirs } from './release.ts';
import type { ArticleSource } from './article-pages.ts';
import { createSiteBuilder, type SiteBuilder, type SiteBuilderOptions } from './service.ts';

/** The builder's options but for the blog's. */
type CommonBuilderOptions = Omit<SiteBuilderOptions, 'articles' | 'listSnapshot'>;

/** Where the snapshot of a data directory lives. */
export const postsSnapshotPath = (dataDir: string) =>
  path.join(siteDirs(dataDir).root, 'posts-snapshot.json');

/**
 * Writes `read()`'s snapshot to `file` atomically, unless its posts and redirects are those
 * already there: the file is an input of the build's source hash, so rewriting unchanged posts
 * with a new generatedAt would make every restart (and every other instance's start) rebuild.
 */
export async function writePostsSnapshot(
  file: string,
  read: () => Promise<PostsSnapshot>,
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const snapshot = await read();
  const previous = await readFile(file, 'utf8')
    .then((text) => JSON.parse(text) as PostsSnapshot)
    .catch(() => null);
  const same = (a: PostsSnapshot) => JSON.stringify([a.posts, a.redirects]);
  if (previous && same(previous) === same(snapshot)) return;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(snapshot));
  await rename(tmp, file);
}

/**
 * The site builder of a data directory, with its posts snapshot as an input: a change to it
 * makes the live release stale. The snapshot holds the list form of every published post: the
 * blog's list pages, feeds and sitemap are rendered from it, and the articles from `articles`
 * (article-pages.ts), apart from the site's other pages, which show no post. Without `articles`
 * one `astro build` renders the whole site from the snapshot (BLOG_SNAPSHOT_PATH).
 */
export function createPostsSiteBuilder(
  opts: Omit<CommonBuilderOptions, 'buildEnv' | 'extraSources' | 'sourceDigest'> & {
    articles?: ArticleSource;
  },
): SiteBuilder {
  const snapshot = postsSnapshotPath(opts.dataDir);
  const { articles, ...rest } = opts;
  const common = { ...rest, extraSources: [snapshot], sourceDigest: snapshotContent };
  return articles
    ? createSiteBuilder({ ...common, articles, listSnapshot: snapshot })
    : createSiteBuilder({ ...common, buildEnv: { BLOG_SNAPSHOT_PATH: snapshot } });
}

/**
 * What of a snapshot the site shows: its posts and redirects, not when it was written, so every
 * instance that reads the same posts finds the same release current (SITE_PUBLISH=s3). Nor the
 * view counts: a release does not go stale because posts were read (the pages' counters read
 * the live count), so a restart after a day of readers does not rebuild.
 */
function snapshotContent(bytes: Buffer): Buffer | string {
  try {
    const snapshot = JSON.parse(bytes.toString('utf8')) as PostsSnapshot;
    const posts = snapshot.posts.map(({ view_count: _views, ...shown }) => shown);
    return JSON.stringify([posts, snapshot.redirects]);
  } catch {
    return bytes; // not JSON: the build fails on it, and its bytes say it changed
  }
}
