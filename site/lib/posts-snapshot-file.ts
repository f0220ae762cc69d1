/**
 * The posts snapshot a build reads: BLOG_SNAPSHOT_PATH (the server sets it for its builds), else
 * the file the server writes in the project's data directory. The content loader
 * (site/content.config.ts) and the sitemap (astro.config.mjs) both read it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the server writes the snapshot when BLOG_SNAPSHOT_PATH is not set (project root). */
const DEFAULT_SNAPSHOT = 'data/site/posts-snapshot.json';

export function postsSnapshotFile(root: URL): string {
  return path.resolve(fileURLToPath(root), process.env.BLOG_SNAPSHOT_PATH || DEFAULT_SNAPSHOT);
}
