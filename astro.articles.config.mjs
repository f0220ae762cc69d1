// @ts-check
/**
 * The server's article builds (server/domains/site-build/article-pages.ts): only /blog/{slug},
 * for the posts of the snapshot at BLOG_SNAPSHOT_PATH, with the site's settings. Its own cache
 * folder: the posts collection here holds a batch of posts, never the main build's whole blog.
 */
import react from '@astrojs/react';
import site from './astro.config.mjs';

/** @type {import('astro').AstroUserConfig} */
export default {
  ...site,
  srcDir: './site/article-pages',
  // No public files: the main build copies them into the release.
  publicDir: './site/article-pages/public',
  cacheDir: './node_modules/.astro-articles',
  integrations: [react()],
};
