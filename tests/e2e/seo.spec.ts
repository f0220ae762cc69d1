/**
 * Search and share metadata on every page (issue 6 item 6): one h1, a canonical link equal to
 * the page's own URL, a description, Open Graph and Twitter cards with an absolute image that
 * loads, valid JSON-LD; private pages are noindex; robots.txt and the sitemap describe the site.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  PRIVATE_PAGES,
  SPEC_PUBLIC_ROUTES,
  builtPages,
  publicPaths,
  servedAt,
  sitemapEntries,
} from './site-pages.ts';

test.setTimeout(180_000);

/** Metadata read from a rendered page's head. */
async function readHead(page: Page) {
  return page.evaluate(() => {
    const meta = (selector: string) =>
      document.querySelector<HTMLMetaElement>(`meta[${selector}]`)?.content ?? null;
    return {
      h1s: document.querySelectorAll('h1').length,
      title: document.title,
      canonical: document.querySelector<HTMLLinkElement>('link[rel="canonical"]')?.href ?? null,
      canonicals: document.querySelectorAll('link[rel="canonical"]').length,
      description: meta('name="description"'),
      robots: meta('name="robots"'),
      og: {
        title: meta('property="og:title"'),
        description: meta('property="og:description"'),
        url: meta('property="og:url"'),
        type: meta('property="og:type"'),
        siteName: meta('property="og:site_name"'),
        locale: meta('property="og:locale"'),
        image: meta('property="og:image"'),
        imageAlt: meta('property="og:image:alt"'),
      },
      twitter: { card: meta('name="twitter:card"'), image: meta('name="twitter:image"') },
      jsonLd: [...document.querySelectorAll('script[type="application/ld+json"]')].map(
        (script) => script.textContent ?? '',
      ),
    };
  });
}

/** Every JSON-LD block parses, and each item in it names its vocabulary and type. */
function checkJsonLd(path: string, blocks: string[]) {
  for (const text of blocks) {
    let data: unknown;
    expect(() => (data = JSON.parse(text)), `${path}: JSON-LD parses`).not.toThrow();
    for (const item of Array.isArray(data) ? data : [data]) {
      const node = item as Record<string, unknown>;
      expect.soft(node['@context'], `${path}: JSON-LD @context`).toMatch(/^https:\/\/schema\.org/);
      expect.soft(typeof node['@type'], `${path}: JSON-LD @type`).toBe('string');
    }
  }
}

/** The @type of every top-level JSON-LD item on the page. */
function jsonLdTypes(blocks: string[]): string[] {
  return blocks.flatMap((text) => {
    const data = JSON.parse(text) as Record<string, unknown> | Record<string, unknown>[];
    return (Array.isArray(data) ? data : [data]).map((item) => String(item['@type']));
  });
}

/** Share images are fetched once each: many pages share the default one. */
async function checkImage(request: APIRequestContext, url: string, seen: Map<string, number>) {
  if (!seen.has(url)) {
    const response = await request.get(url);
    seen.set(url, response.status());
    expect.soft(response.headers()['content-type'], `${url}: an image`).toMatch(/^image\//);
  }
  return seen.get(url)!;
}

test('every public page has one h1, its own canonical URL, a description, share cards and valid JSON-LD', async ({
  page,
  request,
  baseURL,
}) => {
  const paths = await publicPaths(request);
  expect(paths.length).toBeGreaterThan(0);
  const images = new Map<string, number>();

  for (const path of paths) {
    await test.step(path, async () => {
      const response = await page.goto(path);
      expect.soft(response?.status(), `${path}: status`).toBe(200);
      const head = await readHead(page);
      const url = new URL(path, baseURL).href;

      expect.soft(head.h1s, `${path}: number of h1`).toBe(1);
      expect.soft(head.title.trim(), `${path}: title`).not.toBe('');
      expect.soft(head.canonicals, `${path}: canonical links`).toBe(1);
      expect.soft(head.canonical, `${path}: canonical`).toBe(url);
      expect.soft(head.description?.trim(), `${path}: description`).toBeTruthy();
      expect
        .soft(head.description?.length ?? 0, `${path}: description length`)
        .toBeLessThanOrEqual(160);
      expect.soft(head.robots ?? '', `${path}: robots`).not.toMatch(/noindex/);

      expect.soft(head.og.title, `${path}: og:title`).toBe(head.title);
      expect.soft(head.og.description, `${path}: og:description`).toBe(head.description);
      expect.soft(head.og.url, `${path}: og:url`).toBe(url);
      expect.soft(head.og.type, `${path}: og:type`).toMatch(/^(website|article)$/);
      expect.soft(head.og.siteName, `${path}: og:site_name`).toBeTruthy();
      expect
        .soft(head.og.locale, `${path}: og:locale`)
        .toBe(path === '/zh' || path.startsWith('/zh/') ? 'zh_CN' : 'en_US');
      expect.soft(head.og.imageAlt, `${path}: og:image:alt`).toBeTruthy();
      expect.soft(head.twitter.card, `${path}: twitter:card`).toBe('summary_large_image');
      expect.soft(head.twitter.image, `${path}: twitter:image`).toBe(head.og.image);
      expect(head.og.image, `${path}: og:image`).toMatch(/^https?:\/\//);
      expect.soft(await checkImage(request, head.og.image!, images), `${head.og.image}`).toBe(200);

      checkJsonLd(path, head.jsonLd);
    });
  }
});

test('the home page describes the organization and the website, pricing its offers, articles themselves', async ({
  page,
  request,
}) => {
  await page.goto('/');
  expect(jsonLdTypes((await readHead(page)).jsonLd)).toEqual(
    expect.arrayContaining(['Organization', 'WebSite']),
  );

  await page.goto('/pricing');
  const pricing = (await readHead(page)).jsonLd.map((text) => JSON.parse(text));
  const product = pricing.find((item) => item['@type'] === 'Product');
  expect(product, 'Product JSON-LD on /pricing').toBeTruthy();
  const offers = product.offers as { price: string; priceCurrency: string }[];
  // Spec 9: three plans and three packs, in US dollars (issue 20: plans are sold yearly too).
  expect(offers.map((offer) => offer.price).sort()).toEqual(
    // Each plan billed monthly and yearly, and each pack.
    ['29.90', '286.00', '59.90', '479.00', '129.90', '959.00', '19.90', '49.90', '99.90'].sort(),
  );
  expect(new Set(offers.map((offer) => offer.priceCurrency))).toEqual(new Set(['USD']));

  await page.goto('/blog');
  expect(jsonLdTypes((await readHead(page)).jsonLd)).toContain('Blog');

  const article = (await publicPaths(request)).find((path) => /^\/blog\/(?!page\/)/.test(path));
  test.skip(!article, 'no published article in this build');
  await page.goto(article!);
  const head = await readHead(page);
  expect(jsonLdTypes(head.jsonLd)).toEqual(
    expect.arrayContaining(['BlogPosting', 'BreadcrumbList']),
  );
  expect(head.og.type).toBe('article');
});

test('every built page outside the sitemap is noindex, the private pages among them', async ({
  request,
  baseURL,
}) => {
  const listed = new Set(await publicPaths(request));
  const built = builtPages();
  expect(built, 'private pages in the build').toEqual(expect.arrayContaining([...PRIVATE_PAGES]));
  for (const path of PRIVATE_PAGES)
    expect.soft(listed.has(path), `${path} in the sitemap`).toBe(false);

  // Read as served, before any script runs: /404 and /blog-admin send a browser elsewhere.
  for (const path of built.filter((page) => !listed.has(page))) {
    await test.step(path, async () => {
      const response = await request.get(servedAt(path), { maxRedirects: 0 });
      expect.soft(response.status(), `${path}: status`).toBe(200);
      const html = await response.text();
      expect
        .soft(html, `${path}: robots noindex`)
        .toMatch(/<meta name="robots" content="[^"]*noindex/);
      expect
        .soft(html, `${path}: canonical`)
        .toContain(`<link rel="canonical" href="${new URL(path, baseURL).href}"`);
      expect.soft(html, `${path}: description`).toMatch(/<meta name="description" content="[^"]+"/);
    });
  }
});

test('the sitemap lists every public route of the spec, on this origin, and each answers 200', async ({
  request,
  baseURL,
}) => {
  const index = await request.get('/sitemap-index.xml');
  expect(index.status()).toBe(200);
  expect(await index.text()).toContain(`<loc>${new URL('/sitemap-0.xml', baseURL).href}</loc>`);

  const entries = await sitemapEntries(request);
  const paths = entries.map((entry) => entry.path);
  expect(paths).toEqual(expect.arrayContaining([...SPEC_PUBLIC_ROUTES]));
  expect(new Set(paths).size, 'no page listed twice').toBe(paths.length);
  for (const { loc, path } of entries) {
    expect.soft(new URL(loc).origin, `${path}: origin`).toBe(new URL(baseURL!).origin);
    // trailingSlash: never; the home page is the only path ending in '/'.
    expect.soft(path === '/' || !path.endsWith('/'), `${path}: no trailing slash`).toBe(true);
    expect
      .soft((await request.get(path, { maxRedirects: 0 })).status(), `${path}: status`)
      .toBe(200);
  }
});

test('robots.txt allows the site, keeps crawlers out of private areas and names the sitemap', async ({
  request,
  baseURL,
}) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toMatch(/^text\/plain/);
  const lines = (await response.text()).split('\n').map((line) => line.trim());
  expect(lines).toContain('User-agent: *');
  for (const prefix of [
    '/api/',
    '/admin',
    '/blog-admin',
    '/video-history',
    '/login',
    '/zh/video-history',
    '/zh/login',
    '/zh/verify-email',
  ]) {
    expect(lines).toContain(`Disallow: ${prefix}`);
  }
  expect(lines).toContain(`Sitemap: ${new URL('/sitemap-index.xml', baseURL).href}`);
  // No rule blocks a page the sitemap lists.
  const disallowed = lines
    .filter((line) => line.startsWith('Disallow:'))
    .map((line) => line.slice('Disallow:'.length).trim())
    .filter(Boolean);
  for (const path of await publicPaths(request)) {
    expect
      .soft(
        disallowed.find((prefix) => path.startsWith(prefix)),
        `${path} is blocked by robots.txt`,
      )
      .toBeUndefined();
  }
});
