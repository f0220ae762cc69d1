// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { readFileSync } from 'node:fs';
import { postPath } from './shared/blog.ts';
import { alternatesOf, isIndexed } from './shared/pages.ts';
import { SERVER_PATH_PREFIXES } from './shared/server-paths.ts';
import { articleAlternates } from './site/lib/blog.ts';
import { blogPagesApart, postsSnapshotFile } from './site/lib/posts-snapshot-file.ts';

const site = JSON.parse(readFileSync(new URL('./content/site.json', import.meta.url), 'utf8'));

/**
 * Vite proxy rules sending each server path (`/api`, `/api/…`, never `/apiary`) to the API.
 * @param {string | undefined} target
 */
function apiProxy(target) {
  if (!target) return {};
  return {
    proxy: Object.fromEntries(SERVER_PATH_PREFIXES.map((prefix) => [`^${prefix}(/|$)`, target])),
  };
}

/**
 * The published posts of a snapshot file (site/content.config.ts reads the same), for the
 * sitemap; none when there is no snapshot (a broken one fails the build where it is read).
 * @param {string} file
 * @returns {import('./shared/api/blog.ts').PostsSnapshot['posts']}
 */
export function snapshotPosts(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed.posts) ? parsed.posts : [];
  } catch {
    return [];
  }
}

const origin = process.env.PUBLIC_SITE_URL ?? site.baseUrl;

/**
 * The sitemap: the pages a build renders and `customPages`, those meant for search results only
 * (the page table's indexed ones, shared/pages.ts). A page in both languages lists both (and
 * x-default, the English one), as its <head> does: by the page table, or for an article, itself
 * and its translation (from `posts`).
 * @param {import('./shared/api/blog.ts').PostsSnapshot['posts']} posts
 * @param {string[]} customPages
 */
export function siteSitemap(posts, customPages = []) {
  const articleAlternatesByPath = new Map(
    posts.map((post) => [postPath(post.slug, post.locale), articleAlternates(post)]),
  );
  return sitemap({
    customPages,
    filter: (page) => isIndexed(new URL(page).pathname),
    serialize: (item) => {
      const pathname = new URL(item.url).pathname;
      const alternates = articleAlternatesByPath.get(pathname) ?? alternatesOf(pathname);
      if (alternates.length === 0) return item;
      const href = (/** @type {string} */ page) => new URL(page, origin).href;
      const english = alternates.find((alt) => alt.locale === 'en') ?? alternates[0];
      return {
        ...item,
        links: [
          ...alternates.map((alt) => ({ lang: alt.locale, url: href(alt.path) })),
          { lang: 'x-default', url: href(english?.path ?? '/') },
        ],
      };
    },
  });
}

// The site builder passes the release directory and public origin through the environment so
// that every build lands in its own release folder (see server/domains/site-build).
export default defineConfig({
  srcDir: './site',
  publicDir: './site/public',
  outDir: process.env.ASTRO_OUT_DIR ?? './dist',
  site: origin,
  output: 'static',
  trailingSlash: 'never',
  build: { format: 'file' },
  // The server's builds render the blog's pages, the sitemap among them, apart
  // (astro.articles.config.mjs); `astro dev` and a plain `astro build` render everything here.
  integrations: blogPagesApart()
    ? [react()]
    : [react(), siteSitemap(snapshotPosts(postsSnapshotFile(new URL('.', import.meta.url))))],
  vite: {
    // `npm run dev` runs the API apart and proxies every server path to it (scripts/dev.ts).
    server: apiProxy(process.env.API_PROXY_TARGET),
    build: {
      rolldownOptions: {
        output: {
          // The small client modules every island page loads (HTTP client, session store, icons,
          // focus trap, formatting) as one chunk instead of a request each.
          codeSplitting: {
            groups: [
              {
                name: 'site-core',
                test: /site[\\/](lib[\\/](api[\\/]http|format|site|icons[\\/](shape|header))|stores[\\/](session|auth|credits)|islands[\\/]shared[\\/](focus-trap|use-hydrated-store|Icon))\.tsx?$/,
              },
            ],
          },
        },
      },
    },
  },
});
