/**
 * The page table (issue 32): every route of the site, once. A row says where the page is in
 * English, whether it also exists in Chinese, whether search engines may list it, and what
 * renders it. Everything that used to keep its own list of paths is computed from here: the
 * routes of both languages (site/pages/[...locale]/, each route's getStaticPaths), the hreflang
 * alternates and the language switch (site/i18n/locales.ts), the sitemap filter
 * (astro.config.mjs), robots.txt (site/pages/robots.txt.ts) and the e2e page lists
 * (tests/e2e/site-pages.ts). tests/unit/page-table.test.ts fails when a route file and the table
 * disagree.
 *
 * Plain values only (the server, the Astro config and the tests import it): no Astro, no React.
 */
import site from '../content/site.json' with { type: 'json' };
import { DEFAULT_LOCALE, LOCALES, PATH_PREFIXES, type Locale } from './locales.ts';

/** The generator page (spec 2 Routes: /text-to-{product}-video, product from content/site.json). */
export const GENERATOR_PATH = `/text-to-${site.product}-video`;

/**
 * Which languages a page is in:
 * - `both`: the same page in every language (hreflang alternates, the language switch, a
 *   localized link from a Chinese page);
 * - `each`: every language has its own page at this path that is not a translation of the other
 *   (the blog's later list pages and its articles name their versions themselves);
 * - `en`: English only (a link from a Chinese page leads to it).
 */
type PageLanguages = 'both' | 'each' | 'en';

/**
 * What search engines see:
 * - `indexed`: in the sitemap;
 * - `noindex`: out of the sitemap but crawlable, so a crawler can read its `noindex` (the 404,
 *   the article shell, the gallery's frames) — files that are not pages (feeds) too;
 * - `private`: out of the sitemap and disallowed in robots.txt (signed-in pages, the pages mailed
 *   links open: their URLs carry single-use tokens).
 */
type PageIndexing = 'indexed' | 'noindex' | 'private';

/** One page (or one route filled from content, such as a blog article). */
export interface PageRow {
  /**
   * The English path. A `[name]` segment is filled at build time from data (`/blog/[slug]`: one
   * page per post); every other row is exactly one page per language.
   */
  path: string;
  /**
   * The route file under site/pages, as a path, when one file serves several rows:
   * `/[landing]` renders each landing row from content/landings/{slug}.json. Default: `path`.
   */
  route?: string;
  languages: PageLanguages;
  indexing: PageIndexing;
  /**
   * The module the route renders (site/views/, site/components/ or an island), by file name; the
   * route file imports it. Absent when the route file is the page itself.
   */
  view?: string;
  /** An operator's tool (admin, blog management): English only, out of the visitors' walks. */
  operator?: true;
}

/** Indexed pages in both languages that one route file renders from content, one per path. */
const contentPages = (paths: readonly string[], route: string, view: string): PageRow[] =>
  paths.map((path) => ({ path, route, languages: 'both', indexing: 'indexed', view }));

/**
 * Every page. Order matters only for robots.txt, which lists the private pages in this order,
 * English first.
 */
export const PAGES: readonly PageRow[] = [
  // Public pages (spec 2 Routes).
  { path: '/', languages: 'both', indexing: 'indexed', view: 'HomePage' },
  {
    path: GENERATOR_PATH,
    route: '/text-to-[product]-video',
    languages: 'both',
    indexing: 'indexed',
    view: 'GeneratorPage',
  },
  { path: '/pricing', languages: 'both', indexing: 'indexed', view: 'PricingPage' },
  { path: '/video-effects', languages: 'both', indexing: 'indexed', view: 'EffectsPage' },
  // The effect landing pages: content/landings/{slug}.json and content/zh-CN/landings/.
  ...contentPages(['/ai-french-kissing', '/asmr-video'], '/[landing]', 'LandingPage'),
  // The legal pages: content/legal/{slug}.md and content/legal/zh-CN/.
  ...contentPages(
    ['/terms-of-service', '/privacy-policy', '/refund-policy'],
    '/[legal]',
    'LegalPage',
  ),
  // The blog: each language lists its own posts. The first list page is the same page in both
  // languages; its later pages and the articles are not (an article names its translations).
  { path: '/blog', languages: 'both', indexing: 'indexed', view: 'BlogListPage' },
  { path: '/blog/page/[page]', languages: 'each', indexing: 'indexed', view: 'BlogListPage' },
  { path: '/blog/[slug]', languages: 'each', indexing: 'indexed', view: 'ArticlePage' },
  { path: '/rss.xml', languages: 'each', indexing: 'noindex', view: 'blog-feed' },
  // Operators' tools.
  {
    path: '/admin',
    languages: 'en',
    indexing: 'private',
    view: 'AdminDashboard',
    operator: true,
  },
  { path: '/blog-admin', languages: 'en', indexing: 'private', view: 'BlogAdmin', operator: true },
  // Signed-in pages and the pages mailed links open.
  { path: '/video-history', languages: 'both', indexing: 'private', view: 'HistoryPage' },
  { path: '/account', languages: 'both', indexing: 'private', view: 'AccountPage' },
  { path: '/account/api', languages: 'both', indexing: 'private', view: 'ApiAccessPage' },
  { path: '/account/billing', languages: 'both', indexing: 'private', view: 'BillingPage' },
  { path: '/login', languages: 'both', indexing: 'private', view: 'LoginPage' },
  { path: '/verify-email', languages: 'both', indexing: 'private', view: 'VerifyEmailPage' },
  { path: '/reset-password', languages: 'both', indexing: 'private', view: 'ResetPasswordPage' },
  // Utilities: public, never listed. The server answers an article address without a page with
  // the shell of its language; /embed/{id} is the page the home gallery frames.
  { path: '/blog/article-shell', languages: 'each', indexing: 'noindex', view: 'ArticleShellPage' },
  { path: '/404', languages: 'en', indexing: 'noindex' },
  { path: '/embed/[id]', languages: 'en', indexing: 'noindex' },
  { path: '/robots.txt', languages: 'en', indexing: 'noindex' },
];

/** The route file a row is served by (as a path): its `route`, else its path. */
export function routeOf(row: PageRow): string {
  return row.route ?? row.path;
}

/** Whether a row stands for pages filled from data (`/blog/[slug]`) rather than one page. */
export function isPattern(row: PageRow): boolean {
  return row.path.includes('[');
}

/** Whether a row is an HTML page (not a file such as /rss.xml or /robots.txt). */
export function isHtmlPage(row: PageRow): boolean {
  return !/\.\w+$/.test(row.path);
}

/** The languages a row's page exists in. */
export function pageLocales(row: PageRow): readonly Locale[] {
  return row.languages === 'en' ? [DEFAULT_LOCALE] : LOCALES;
}

/** An English path in a language: `/login` → `/zh/login`, `/` → `/zh`. */
export function pathIn(englishPath: string, locale: Locale): string {
  const prefix = PATH_PREFIXES[locale];
  if (!prefix) return englishPath;
  return englishPath === '/' ? prefix : prefix + englishPath;
}

/** The language a site path is in: `/zh` and `/zh/…` are Chinese, everything else English. */
export function localeOfPath(path: string): Locale {
  const prefixed = LOCALES.find((locale) => {
    const prefix = PATH_PREFIXES[locale];
    return prefix !== '' && (path === prefix || path.startsWith(`${prefix}/`));
  });
  return prefixed ?? DEFAULT_LOCALE;
}

/** The English path of a page in any language: `/zh/login` → `/login`, `/zh` → `/`. */
export function basePath(path: string): string {
  return path.slice(PATH_PREFIXES[localeOfPath(path)].length) || '/';
}

/** A `[name]` pattern as a regular expression capturing each named segment. */
function patternRegex(pattern: string): RegExp {
  const source = pattern
    .split(/(\[\w+\])/)
    .map((part) =>
      /^\[\w+\]$/.test(part)
        ? `(?<${part.slice(1, -1)}>[^/]+)`
        : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`);
}

/** English paths of the pages that are the same page in every language. */
const BILINGUAL_PATHS: ReadonlySet<string> = new Set(
  PAGES.filter((row) => row.languages === 'both').map((row) => row.path),
);

/** True when the page at this path (in any language) exists in every language. */
function isLocalized(path: string): boolean {
  return BILINGUAL_PATHS.has(basePath(path));
}

/**
 * The path of a page in a language: its own version where it has one, else the English page.
 * Keeps a query or hash: `/login?next=1` → `/zh/login?next=1`.
 */
export function localizePath(path: string, locale: Locale): string {
  const cut = path.search(/[?#]/);
  const pathname = cut === -1 ? path : path.slice(0, cut);
  const rest = cut === -1 ? '' : path.slice(cut);
  const base = basePath(pathname);
  if (!BILINGUAL_PATHS.has(base)) return base + rest;
  return pathIn(base, locale) + rest;
}

/** One language's version of a page (an hreflang alternate). */
export interface Alternate {
  locale: Locale;
  path: string;
}

/** Every language's version of a page, or an empty list when it exists in English only. */
export function alternatesOf(path: string): Alternate[] {
  if (!isLocalized(path)) return [];
  return LOCALES.map((locale) => ({ locale, path: localizePath(path, locale) }));
}

/**
 * The row of a site path in any language (`/zh/pricing`, `/blog/my-post`): its own row, else the
 * pattern row it fills; undefined when no route serves it in that language.
 */
export function pageAt(path: string): PageRow | undefined {
  const locale = localeOfPath(path);
  const base = basePath(path);
  const inLocale = PAGES.filter((row) => pageLocales(row).includes(locale));
  return (
    inLocale.find((row) => !isPattern(row) && row.path === base) ??
    inLocale.find((row) => isPattern(row) && patternRegex(row.path).test(base))
  );
}

/**
 * Whether the sitemap lists a page (astro.config.mjs). A path no row serves throws: a route
 * missing from the table must not be listed (or left out) by accident.
 */
export function isIndexed(path: string): boolean {
  const row = pageAt(path);
  if (!row) throw new Error(`${path}: no row of shared/pages.ts serves this page.`);
  return row.indexing === 'indexed';
}

/** The pages crawlers must not fetch (robots.txt prefixes): the private ones, in every language. */
export function privatePaths(): string[] {
  return LOCALES.flatMap((locale) =>
    PAGES.filter((row) => row.indexing === 'private' && pageLocales(row).includes(locale)).map(
      (row) => pathIn(row.path, locale),
    ),
  );
}

/** One built page of a route: its parameters, and the language it is in. */
export interface RoutePath {
  params: Record<string, string | undefined>;
  props: { locale: Locale };
}

/**
 * The static paths of a route file under site/pages/[...locale]/ (or site/pages/ for an
 * English-only route): one per row it serves and language of that row, with the language
 * parameter (`locale`: undefined for English, `zh` for Chinese) and the route's own parameters
 * read from the row's path (`/[landing]` serving `/asmr-video` → `landing: 'asmr-video'`). A row
 * filled from data (`/blog/[slug]`) gives one entry per language, without its own parameters.
 */
export function routePaths(route: string): RoutePath[] {
  const rows = PAGES.filter((row) => routeOf(row) === route);
  if (rows.length === 0) throw new Error(`${route}: no row of shared/pages.ts has this route.`);
  const regex = patternRegex(route);
  return LOCALES.flatMap((locale) =>
    rows
      .filter((row) => pageLocales(row).includes(locale))
      .map((row) => ({
        params: {
          locale: PATH_PREFIXES[locale].slice(1) || undefined,
          ...(isPattern(row) ? {} : regex.exec(row.path)?.groups),
        },
        props: { locale },
      })),
  );
}
