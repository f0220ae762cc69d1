// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import sitemap from '@astrojs/sitemap';
import { readFileSync } from 'node:fs';
import { SERVER_PATH_PREFIXES } from './shared/server-paths.ts';
import { alternatesOf } from './site/i18n/locales.ts';

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
 * The article pages' addresses, for the sitemap, when the server builds them apart
 * (BLOG_ARTICLES=separate, astro.articles.config.mjs): this build renders none of them, so the
 * sitemap takes them from the posts snapshot. Mirrors `postPath` in site/lib/blog.ts.
 * @param {string} origin
 * @returns {string[]}
 */
function separateArticlePages(origin) {
  const snapshot = process.env.BLOG_SNAPSHOT_PATH;
  if (process.env.BLOG_ARTICLES !== 'separate' || !snapshot) return [];
  /** @type {{ posts?: Array<{ slug: string }> }} */
  let parsed;
  try {
    parsed = JSON.parse(readFileSync(snapshot, 'utf8'));
  } catch {
    return []; // no snapshot: no posts (a broken one fails the content loader with its error)
  }
  return (parsed.posts ?? []).map(
    (post) => new URL(`/blog/${encodeURIComponent(post.slug)}`, origin).href,
  );
}

const origin = process.env.PUBLIC_SITE_URL ?? site.baseUrl;

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
  integrations: [
    react(),
    sitemap({
      customPages: separateArticlePages(origin),
      // Only pages meant for search results: not the noindex ones (sign-in, private, utility).
      filter: (page) =>
        !/^(\/zh)?\/(login|verify-email|reset-password|404|video-history|blog-admin|admin(\/.*)?|blog\/article-shell|embed\/.*)$/.test(
          new URL(page).pathname,
        ),
      // A page in both languages lists both (and x-default, the English one), as its <head> does.
      serialize: (item) => {
        const alternates = alternatesOf(new URL(item.url).pathname);
        if (alternates.length === 0) return item;
        const href = (/** @type {string} */ path) => new URL(path, origin).href;
        return {
          ...item,
          links: [
            ...alternates.map((alt) => ({ lang: alt.locale, url: href(alt.path) })),
            { lang: 'x-default', url: href(alternates[0]?.path ?? '/') },
          ],
        };
      },
    }),
  ],
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
