/**
 * The page lists the site-wide specs (seo, a11y, links, layout, screenshots) walk. Public pages
 * come from the built sitemap, so a new page is checked as soon as it is published; the page
 * table's (shared/pages.ts) are asserted to be among them (seo.spec.ts), and the private ones to
 * be built and left out. Every built page comes from the live release's manifest, in the data
 * directory the e2e server runs on (playwright.config.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import {
  GENERATOR_PATH,
  isHtmlPage,
  isPattern,
  PAGES,
  pageLocales,
  pathIn,
} from '../../shared/pages.ts';

const readJson = <T>(file: string): T =>
  JSON.parse(readFileSync(new URL(`../../content/${file}`, import.meta.url), 'utf8')) as T;

export { GENERATOR_PATH };

/** The concrete pages of the table (not the rows filled from data, such as /blog/[slug]). */
const pageRows = PAGES.filter((row) => !isPattern(row) && isHtmlPage(row));

/**
 * Spec 2 Routes: every public page, the page table's indexed ones, in English
 * (tests/unit/page-table.test.ts checks the spec's routes are among them).
 */
export const SPEC_PUBLIC_ROUTES: readonly string[] = pageRows
  .filter((row) => row.indexing === 'indexed')
  .map((row) => row.path);

/** Pages that need sign-in or are utilities, in every language: noindex and out of the sitemap. */
export const PRIVATE_PAGES: readonly string[] = pageRows
  .filter((row) => row.indexing !== 'indexed')
  .flatMap((row) => pageLocales(row).map((locale) => pathIn(row.path, locale)));

/**
 * Private pages a signed-out visitor stays on, in English (the others send the browser elsewhere;
 * the operators' tools have their own specs).
 */
export const SIGNED_OUT_PAGES: readonly string[] = pageRows
  .filter((row) => row.indexing === 'private' && !row.operator)
  .map((row) => row.path);

/**
 * The path of every HTML page in the live release (`/`, `/pricing`, `/embed/{id}`, `/404`…),
 * read from its manifest, so pages no other page links to are checked too.
 */
export function builtPages(): string[] {
  // Relative to the project root, as playwright.config.ts hands it to the server.
  const root = path.resolve(import.meta.dirname, '../..');
  const dataDir = path.resolve(root, process.env.E2E_DATA_DIR ?? '.test-output/e2e-data');
  const manifest = JSON.parse(
    readFileSync(path.join(dataDir, 'site/current/release.json'), 'utf8'),
  ) as { files: string[] };
  return manifest.files
    .filter((file) => file.endsWith('.html'))
    .map((file) => (file === 'index.html' ? '/' : `/${file.replace(/\.html$/, '')}`))
    .sort();
}

/** The URL a page path is served at: /404 is only served as /404.html (other paths get a 404). */
export const servedAt = (pagePath: string) => (pagePath === '/404' ? '/404.html' : pagePath);

/** The page URLs listed in the built sitemap, as `{ loc, path }`. */
export async function sitemapEntries(
  request: APIRequestContext,
): Promise<{ loc: string; path: string }[]> {
  const response = await request.get('/sitemap-0.xml');
  if (!response.ok()) throw new Error(`/sitemap-0.xml answered ${response.status()}`);
  const xml = await response.text();
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map(([, loc]) => {
    const url = new URL(loc!.trim());
    return { loc: url.href, path: url.pathname };
  });
}

/** The paths of every public page (from the sitemap). */
export async function publicPaths(request: APIRequestContext): Promise<string[]> {
  return (await sitemapEntries(request)).map((entry) => entry.path);
}

/** A file-system-safe name for a path: `/` → `home`, `/blog/my-post` → `blog-my-post`. */
export function pageName(path: string): string {
  return path === '/' ? 'home' : path.replace(/^\//, '').replace(/[^\w-]+/g, '-');
}

/**
 * Waits until a page has settled: loaded, the network quiet for a moment (or 2 s have passed:
 * the gallery's videos may keep streaming), and the `client:load` and `client:idle` islands
 * hydrated (Astro drops their `ssr` attribute then).
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForLoadState('networkidle', { timeout: 2_000 }).catch(() => {});
  await page
    .locator('astro-island[ssr]:is([client="load"], [client="idle"])')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => {});
}

const gallery = readJson<Array<{ id: string }>>('gallery.json');
// The landing pages' clips: one content file per landing row of the page table.
const landingSampleIds = PAGES.filter((row) => row.route === '/[landing]').flatMap((row) =>
  readJson<{ samples: Array<{ id: string }> }>(`landings${row.path}.json`).samples.map((s) => s.id),
);

/**
 * The sample clips the specs play or fetch: rendered before the e2e server starts (serve.ts).
 * Every other clip stays pending for the whole run (SAMPLE_CLIPS=off), as on a fresh start.
 */
export const E2E_READY_SAMPLES: readonly string[] = [gallery[0]!.id, ...landingSampleIds];

/** The e2e server's own sample cache (relative to the project): only E2E_READY_SAMPLES are in it. */
export const E2E_SAMPLE_CACHE_DIR = 'node_modules/.cache/veo3-e2e-samples';

/**
 * Scrolls through the page once so lazy frames and images load (the home gallery builds a frame
 * as its card nears the viewport), then back to the top: before a full-page screenshot.
 */
export async function scrollThrough(page: Page) {
  await page.evaluate(async () => {
    for (let y = 0; y < document.body.scrollHeight; y += innerHeight / 2) {
      scrollTo(0, y);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    scrollTo(0, 0);
  });
}
