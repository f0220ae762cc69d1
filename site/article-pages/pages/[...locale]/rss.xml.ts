/**
 * The server's builds of the blog's pages (astro.articles.config.mjs): /rss.xml and /zh/rss.xml
 * (site/lib/blog-feed.ts), from the list form of every post (BLOG_LIST_SNAPSHOT_PATH); none in a
 * build of articles alone.
 */
import type { GetStaticPaths } from 'astro';
import { listSnapshotFile } from '../../../lib/posts-snapshot-file.ts';
import { routePaths } from '../../../../shared/pages.ts';

export { GET } from '../../../pages/[...locale]/rss.xml.ts';

export const getStaticPaths = (() =>
  listSnapshotFile() ? routePaths('/rss.xml') : []) satisfies GetStaticPaths;
