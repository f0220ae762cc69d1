/**
 * The posts snapshots a build reads. BLOG_SNAPSHOT_PATH: the posts whose pages it renders (the
 * server sets it for its builds of the blog's pages), else the file the server writes in the
 * project's data directory; the content loader (site/content.config.ts) and the sitemap
 * (astro.config.mjs) read it. BLOG_LIST_SNAPSHOT_PATH: the list form of every published post,
 * from which the server's builds of the blog's pages render the list pages, feeds and sitemap
 * (site/lib/post-pages.ts, astro.articles.config.mjs).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the server writes the snapshot when BLOG_SNAPSHOT_PATH is not set (project root). */
const DEFAULT_SNAPSHOT = 'data/site/posts-snapshot.json';

export function postsSnapshotFile(root: URL): string {
  return path.resolve(fileURLToPath(root), process.env.BLOG_SNAPSHOT_PATH || DEFAULT_SNAPSHOT);
}

/** The list snapshot this build renders the lists from, or null (they come from the posts). */
export function listSnapshotFile(): string | null {
  return process.env.BLOG_LIST_SNAPSHOT_PATH || null;
}

/**
 * Whether this is the server's build of the site without the blog's pages (BLOG_PAGES=separate):
 * it renders none of them and reads no post; the server builds them apart, with
 * astro.articles.config.mjs (server/domains/site-build/article-pages.ts).
 */
export function blogPagesApart(): boolean {
  return process.env.BLOG_PAGES === 'separate';
}
