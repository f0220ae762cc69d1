/**
 * Search and share metadata of a rendered page (issue 6 item 6): read from its head, and the
 * checks every public page must pass. The desktop walk of tests/e2e/a11y.spec.ts runs them on
 * each public page as it loads it (one visit per page and width for all the walks);
 * tests/e2e/seo.spec.ts reads the JSON-LD of a few pages itself.
 */
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Metadata read from a rendered page's head. */
export async function readHead(page: Page) {
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
    expect.soft(() => (data = JSON.parse(text)), `${path}: JSON-LD parses`).not.toThrow();
    if (data === undefined) continue;
    for (const item of Array.isArray(data) ? data : [data]) {
      const node = item as Record<string, unknown>;
      expect.soft(node['@context'], `${path}: JSON-LD @context`).toMatch(/^https:\/\/schema\.org/);
      expect.soft(typeof node['@type'], `${path}: JSON-LD @type`).toBe('string');
    }
  }
}

/** The @type of every top-level JSON-LD item on the page. */
export function jsonLdTypes(blocks: string[]): string[] {
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

/**
 * A public page just loaded (before its islands run) has one h1, a title, one canonical link
 * that is its own URL, a description of at most 160 characters, no noindex, Open Graph and
 * Twitter cards whose absolute image loads, and valid JSON-LD. `images` keeps the share images
 * already fetched.
 */
export async function checkPublicHead(
  page: Page,
  request: APIRequestContext,
  path: string,
  baseURL: string | undefined,
  images: Map<string, number>,
): Promise<void> {
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
  // Soft like the rest: one page's failure must not end the walk it is part of.
  expect.soft(head.og.image, `${path}: og:image`).toMatch(/^https?:\/\//);
  if (/^https?:\/\//.test(head.og.image ?? '')) {
    expect.soft(await checkImage(request, head.og.image!, images), `${head.og.image}`).toBe(200);
  }

  checkJsonLd(path, head.jsonLd);
}
