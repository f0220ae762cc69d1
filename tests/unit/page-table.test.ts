/**
 * The page table (shared/pages.ts, issue 32) is the one list of pages: every route file under
 * site/pages has its row and every row its route file, in the folder its languages say
 * (site/pages/[...locale]/ for pages in both languages, site/pages/ for English-only ones); each
 * route takes its languages from the table; and the sitemap filter, robots.txt, the hreflang
 * alternates and the e2e page lists are computed from it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import site from '../../content/site.json' with { type: 'json' };
import { LOCALES } from '../../shared/locales.ts';
import {
  alternatesOf,
  GENERATOR_PATH,
  isHtmlPage,
  isIndexed,
  isPattern,
  localizePath,
  pageAt,
  pageLocales,
  PAGES,
  pathIn,
  privatePaths,
  routeOf,
  routePaths,
  type PageRow,
} from '../../shared/pages.ts';
import { GET as robotsTxt } from '../../site/pages/robots.txt.ts';
import { PRIVATE_PAGES, SIGNED_OUT_PAGES, SPEC_PUBLIC_ROUTES } from '../e2e/site-pages.ts';

const root = path.resolve(import.meta.dirname, '../..');
const pagesDir = path.join(root, 'site/pages');
/** The folder of the routes built in every language (its rest parameter is the language). */
const LOCALE_DIR = '[...locale]';

/** A route file under site/pages: its route as a path, and whether it is in the language folder. */
interface RouteFile {
  file: string;
  route: string;
  localized: boolean;
}

/** Every route file under a pages folder (pages and endpoints), as routes. */
function routeFiles(dir: string): RouteFile[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(astro|md|mdx|html|ts|js)$/.test(entry.name))
    .map((entry) => {
      const file = path.relative(dir, path.join(entry.parentPath, entry.name));
      const parts = file.split(path.sep);
      const localized = parts[0] === LOCALE_DIR;
      const rest = (localized ? parts.slice(1) : parts).join('/');
      const route = `/${rest.replace(/\.(astro|md|mdx|html|ts|js)$/, '').replace(/(^|\/)index$/, '')}`;
      return { file, route, localized };
    });
}

/** Where a row's route file must be. */
const expectedRoute = (row: PageRow) => ({
  route: routeOf(row),
  localized: row.languages !== 'en',
});

const key = (route: { route: string; localized: boolean }) =>
  `${route.localized ? `${LOCALE_DIR} ` : ''}${route.route}`;

/** Spec 2 Routes, as the spec names them (the oracle the table must cover). */
const SPEC_ROUTES = {
  public: [
    '/',
    GENERATOR_PATH,
    '/pricing',
    '/video-effects',
    '/ai-french-kissing',
    '/asmr-video',
    '/blog',
    '/blog/[slug]',
    '/terms-of-service',
    '/privacy-policy',
    '/refund-policy',
  ],
  private: ['/login', '/video-history', '/blog-admin'],
};

describe('the page table and the route files', () => {
  const files = routeFiles(pagesDir);

  it('has a row for every route file under site/pages, in the folder of its languages', () => {
    const rows = new Set(PAGES.map((row) => key(expectedRoute(row))));
    const strays = files.filter((file) => !rows.has(key(file))).map((file) => file.file);
    expect(strays, 'route files without a row in shared/pages.ts').toEqual([]);
  });

  it('has a route file for every row', () => {
    const routes = new Set(files.map(key));
    const missing = PAGES.filter((row) => !routes.has(key(expectedRoute(row)))).map(
      (row) => row.path,
    );
    expect(missing, 'rows of shared/pages.ts without a route file').toEqual([]);
  });

  it('lists each page once', () => {
    const paths = PAGES.map((row) => row.path);
    expect(paths.filter((p, index) => paths.indexOf(p) !== index)).toEqual([]);
  });

  it.each(files.filter((file) => file.localized))(
    '$file takes its languages from its row (routePaths)',
    ({ file, route }) => {
      const source = readFileSync(path.join(pagesDir, file), 'utf8');
      expect(source).toContain(`routePaths('${route}')`);
    },
  );

  it.each(PAGES.filter((row) => row.view))('the route of $path renders its view', (row) => {
    const file = files.find((candidate) => key(candidate) === key(expectedRoute(row)));
    const source = readFileSync(path.join(pagesDir, file!.file), 'utf8');
    expect(source).toMatch(new RegExp(`/${row.view}\\.(astro|tsx?)['"]`));
  });

  it('fills pattern rows from data in their own route, and the others are one page each', () => {
    for (const row of PAGES.filter(isPattern)) expect(routeOf(row), row.path).toBe(row.path);
    // A page in both languages, or one crawlers are kept out of, is a page with one address.
    for (const row of PAGES.filter((r) => r.languages === 'both' || r.indexing === 'private'))
      expect(isPattern(row), row.path).toBe(false);
  });

  it('has a landing row for each landing file and a legal row for each legal text, in both languages', () => {
    const slugs = (dir: string, ext: string) =>
      readdirSync(path.join(root, dir))
        .filter((name) => name.endsWith(ext))
        .map((name) => `/${name.slice(0, -ext.length)}`)
        .sort();
    const rowsOf = (route: string) =>
      PAGES.filter((row) => row.route === route)
        .map((row) => row.path)
        .sort();
    expect(rowsOf('/[landing]')).toEqual(slugs('content/landings', '.json'));
    expect(rowsOf('/[landing]')).toEqual(slugs('content/zh-CN/landings', '.json'));
    expect(rowsOf('/[legal]')).toEqual(slugs('content/legal', '.md'));
    expect(rowsOf('/[legal]')).toEqual(slugs('content/legal/zh-CN', '.md'));
  });

  it('covers the spec routes: its public pages indexed, its signed-in ones private', () => {
    for (const route of SPEC_ROUTES.public) {
      expect(PAGES.find((row) => row.path === route)?.indexing, route).toBe('indexed');
    }
    for (const route of SPEC_ROUTES.private) {
      expect(PAGES.find((row) => row.path === route)?.indexing, route).toBe('private');
    }
  });
});

describe('routes from the table', () => {
  it('builds a page in both languages once per language, English without a prefix', () => {
    expect(routePaths('/pricing')).toEqual([
      { params: { locale: undefined }, props: { locale: 'en' } },
      { params: { locale: 'zh' }, props: { locale: 'zh-CN' } },
    ]);
  });

  it("reads a shared route's parameters from each row's path", () => {
    expect(routePaths('/text-to-[product]-video').map((route) => route.params)).toEqual([
      { locale: undefined, product: site.product },
      { locale: 'zh', product: site.product },
    ]);
    expect(routePaths('/[landing]').map((route) => route.params)).toEqual(
      expect.arrayContaining([
        { locale: undefined, landing: 'asmr-video' },
        { locale: 'zh', landing: 'asmr-video' },
      ]),
    );
  });

  it('gives a data-filled row one entry per language and refuses a route the table lacks', () => {
    expect(routePaths('/blog/[slug]').map((route) => route.params)).toEqual([
      { locale: undefined },
      { locale: 'zh' },
    ]);
    expect(() => routePaths('/not-a-page')).toThrow(/no row/);
  });
});

/** Every concrete page of the table in every language it exists in, with its row. */
const pagesInEveryLanguage = PAGES.filter((row) => !isPattern(row)).flatMap((row) =>
  pageLocales(row).map((locale) => ({ row, path: pathIn(row.path, locale) })),
);

describe('what is computed from the table', () => {
  it('the sitemap lists exactly the indexed pages, data-filled ones included', () => {
    for (const { row, path: page } of pagesInEveryLanguage) {
      expect(isIndexed(page), page).toBe(row.indexing === 'indexed');
    }
    expect(isIndexed('/blog/my-post')).toBe(true);
    expect(isIndexed('/zh/blog/page/2')).toBe(true);
    expect(isIndexed('/embed/clip-1')).toBe(false);
  });

  it('a page no row serves in that language fails the sitemap instead of being listed', () => {
    expect(pageAt('/zh/embed/clip-1')).toBeUndefined();
    expect(() => isIndexed('/zh/admin')).toThrow(/no row/);
    expect(() => isIndexed('/not-a-page')).toThrow(/no row/);
  });

  it('the astro config filters the sitemap through the table', () => {
    const config = readFileSync(path.join(root, 'astro.config.mjs'), 'utf8');
    expect(config).toMatch(/filter: \(page\) => isIndexed\(/);
  });

  it('robots.txt disallows the private pages in every language and nothing the sitemap lists', async () => {
    const response = await robotsTxt({ site: new URL('https://example.com') } as APIContext);
    const disallowed = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('Disallow: '))
      .map((line) => line.slice('Disallow: '.length));
    const expected = pagesInEveryLanguage
      .filter(({ row }) => row.indexing === 'private')
      .map(({ path: page }) => page);
    expect(privatePaths().sort()).toEqual([...expected].sort());
    expect(disallowed).toEqual(expect.arrayContaining(expected));
    expect(disallowed).toContain('/zh/login');
    for (const { row, path: page } of pagesInEveryLanguage.filter(
      ({ row }) => row.indexing !== 'private',
    )) {
      expect(
        disallowed.find((prefix) => page === prefix || page.startsWith(`${prefix}/`)),
        `${row.path} blocked`,
      ).toBeUndefined();
    }
  });

  it('pages in both languages name each other; the others have no alternates and stay English', () => {
    for (const { row, path: page } of pagesInEveryLanguage) {
      const alternates = alternatesOf(page);
      if (row.languages === 'both') {
        expect(alternates, page).toEqual(
          LOCALES.map((locale) => ({ locale, path: pathIn(row.path, locale) })),
        );
        expect(localizePath(row.path, 'zh-CN')).toBe(pathIn(row.path, 'zh-CN'));
      } else {
        expect(alternates, page).toEqual([]);
        expect(localizePath(row.path, 'zh-CN'), page).toBe(row.path);
      }
    }
  });

  it('the e2e page lists are the rows by indexing', () => {
    const html = PAGES.filter((row) => !isPattern(row) && isHtmlPage(row));
    expect([...SPEC_PUBLIC_ROUTES].sort()).toEqual(
      html
        .filter((row) => row.indexing === 'indexed')
        .map((row) => row.path)
        .sort(),
    );
    expect(PRIVATE_PAGES).toEqual(expect.arrayContaining(['/login', '/zh/login', '/404']));
    expect(PRIVATE_PAGES.filter((page) => isIndexed(page))).toEqual([]);
    expect(
      pagesInEveryLanguage
        .filter(({ row }) => isHtmlPage(row) && row.indexing !== 'indexed')
        .every(({ path: page }) => PRIVATE_PAGES.includes(page)),
    ).toBe(true);
    expect([...SIGNED_OUT_PAGES].sort()).toEqual([
      '/account',
      '/account/api',
      '/account/billing',
      '/login',
      '/reset-password',
      '/verify-email',
      '/video-history',
    ]);
  });
});
