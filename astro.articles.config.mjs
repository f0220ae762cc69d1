// @ts-check
/**
 * The server's builds of the blog's pages (server/domains/site-build/article-pages.ts), with the
 * site's settings: /blog/{slug} for the posts of the snapshot at BLOG_SNAPSHOT_PATH (the ones
 * that changed since the live release) and, given the list form of every post at
 * BLOG_LIST_SNAPSHOT_PATH, the list pages, both feeds and the sitemap, which lists the site's
 * indexed pages (by the page table) and every post. Its own cache folder: the posts collection
 * here holds a batch of posts, never the main build's whole blog.
 */
import react from '@astrojs/react';
import site, { siteSitemap, snapshotPosts } from './astro.config.mjs';
import { postPath } from './shared/blog.ts';
import { isPattern, pageLocales, PAGES, pathIn } from './shared/pages.ts';
import { listSnapshotFile } from './site/lib/posts-snapshot-file.ts';

const listSnapshot = listSnapshotFile();

/**
 * The sitemap's pages this build does not render: every indexed page of the site (one per row
 * and language) and every post's article.
 * @param {string} listFile
 * @returns {import('astro').AstroIntegration}
 */
function blogSitemap(listFile) {
  const origin = /** @type {string} */ (site.site);
  const posts = snapshotPosts(listFile);
  const sitePages = PAGES.filter((row) => row.indexing === 'indexed' && !isPattern(row)).flatMap(
    (row) => pageLocales(row).map((locale) => pathIn(row.path, locale)),
  );
  const articles = posts.map((post) => postPath(post.slug, post.locale));
  return siteSitemap(
    posts,
    [...sitePages, ...articles].map((page) => new URL(page, origin).href),
  );
}

/** @type {import('astro').AstroUserConfig} */
export default {
  ...site,
  srcDir: './site/article-pages',
  // No public files: the main build copies them into the release.
  publicDir: './site/article-pages/public',
  cacheDir: './node_modules/.astro-articles',
  integrations: listSnapshot ? [react(), blogSitemap(listSnapshot)] : [react()],
};
