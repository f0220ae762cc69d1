/**
 * No broken internal links (issue 6 "Tests that must exist"): every URL of our own origin in
 * every built page (links, stylesheets, scripts and islands, images, video sources and posters,
 * frames, share-image and canonical URLs) and in the stylesheets they load answers below 400.
 * A redirect is fine when it ends on a page that exists. Plain HTTP, no browser.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { builtPages, publicPaths, servedAt, E2E_READY_SAMPLES } from './site-pages.ts';

test.setTimeout(180_000);

/** Attributes that hold a URL, wherever they appear. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'poster',
  'action',
  'data',
  'component-url',
  'renderer-url',
  'before-hydration-url',
]);
/** Meta tags whose content is a URL (share cards); og:image:alt and the like are not. */
const URL_META = new Set([
  'og:url',
  'og:image',
  'og:image:url',
  'og:image:secure_url',
  'og:video',
  'og:video:url',
  'twitter:image',
]);

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
const decode = (value: string) =>
  value.replace(/&(#\d+|#x[\da-f]+|\w+);/gi, (entity, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? entity;
    return String.fromCodePoint(
      name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)),
    );
  });

/**
 * The URL-valued attributes of every tag in a page. A small tokenizer is enough: the pages are
 * Astro's output, where attribute values are quoted. Script and style bodies are dropped first
 * so code such as `a<b` is never read as a tag.
 */
function extractUrls(html: string): string[] {
  const body = html.replace(/(<(script|style)\b[^>]*>)[\s\S]*?(<\/\2>)/gi, '$1$3');
  const urls: string[] = [];
  for (const [, , attributes = ''] of body.matchAll(/<([a-z][\w-]*)\b([^>]*)>/gi)) {
    const attrs = new Map<string, string>();
    for (const [, name, , double, single, bare] of attributes.matchAll(
      /([^\s"'=<>/]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g,
    )) {
      attrs.set(name!.toLowerCase(), decode(double ?? single ?? bare ?? ''));
    }
    for (const [name, value] of attrs) {
      if (URL_ATTRIBUTES.has(name)) urls.push(value);
      if (name === 'srcset')
        urls.push(...value.split(',').map((part) => part.trim().split(/\s+/)[0]!));
    }
    const meta = attrs.get('property') ?? attrs.get('name') ?? '';
    if (URL_META.has(meta) && attrs.has('content')) urls.push(attrs.get('content')!);
  }
  return urls.filter(Boolean);
}

/** `url(...)` references in a stylesheet (fonts, backgrounds). */
function cssUrls(css: string): string[] {
  return [...css.matchAll(/url\(\s*(['"]?)([^'")]+)\1\s*\)/g)].map(([, , url]) => url!.trim());
}

/** The same-origin URL a reference names, without its fragment; null for anything else. */
function internal(reference: string, base: string, origin: string): string | null {
  if (/^(mailto|tel|data|javascript|blob):/i.test(reference) || reference.startsWith('#')) {
    return null;
  }
  const url = new URL(reference, base);
  if (url.origin !== origin) return null;
  url.hash = '';
  return url.href;
}

/** Fetches a URL once; later calls answer from the cache. */
function fetcher(request: APIRequestContext) {
  const cache = new Map<
    string,
    Promise<{ status: number; type: string; body: string | null; retryAfter: string | null }>
  >();
  return (url: string) => {
    if (!cache.has(url)) {
      cache.set(
        url,
        request.get(url).then(async (response) => {
          const type = response.headers()['content-type'] ?? '';
          const text = /text\/(html|css)/.test(type) ? await response.text() : null;
          const retryAfter = response.headers()['retry-after'] ?? null;
          return { status: response.status(), type, body: text, retryAfter };
        }),
      );
    }
    return cache.get(url)!;
  };
}

test('every internal link, asset and frame on every built page resolves', async ({
  request,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const get = fetcher(request);
  // Every page of the release, and the sitemap's (a post published since may not be built yet).
  const paths = new Set([...builtPages(), ...(await publicPaths(request))]);
  const pages = [...paths].map((path) => new URL(servedAt(path), origin).href);
  /** target URL → the pages (or stylesheets) that reference it. */
  const references = new Map<string, Set<string>>();
  const refer = (target: string | null, from: string) => {
    if (!target) return;
    if (!references.has(target)) references.set(target, new Set());
    references.get(target)!.add(new URL(from).pathname);
  };

  for (const page of pages) {
    const { status, body } = await get(page);
    expect.soft(status, `${page}: status`).toBeLessThan(400);
    for (const reference of extractUrls(body ?? '')) refer(internal(reference, page, origin), page);
  }

  const broken: string[] = [];
  const pendingSamples: string[] = [];
  const checked = new Set<string>();
  // Stylesheets found on the way add their own url(...) references to the queue.
  for (let pending = [...references.keys()]; pending.length > 0;) {
    const next: string[] = [];
    for (const target of pending) {
      if (checked.has(target)) continue;
      checked.add(target);
      const { status, type, body, retryAfter } = await get(target);
      // A sample clip still rendering is on its way, not broken (its player shows a note).
      if (status === 503 && retryAfter && new URL(target).pathname.startsWith('/samples/')) {
        pendingSamples.push(new URL(target).pathname);
        continue;
      }
      if (status >= 400) {
        broken.push(
          `${status} ${target}\n    linked from ${[...references.get(target)!].join(', ')}`,
        );
      } else if (type.startsWith('text/css') && body) {
        for (const reference of cssUrls(body)) {
          const url = internal(reference, target, origin);
          refer(url, target);
          if (url) next.push(url);
        }
      }
    }
    pending = next;
  }

  expect(checked.size, 'internal references found').toBeGreaterThan(pages.length);
  expect(broken, `broken internal references:\n${broken.join('\n')}\n`).toEqual([]);
  // Only clips not rendered yet may be pending: the ones rendered before the run resolve.
  expect(
    pendingSamples.filter((p) => E2E_READY_SAMPLES.some((id) => p.startsWith(`/samples/${id}.`))),
  ).toEqual([]);
});

test.describe('extractUrls', () => {
  test('reads URL attributes, srcset candidates and share-card meta, not code in scripts', () => {
    const html = `
      <link rel="stylesheet" href="/_astro/a.css">
      <meta property="og:image" content="https://example.test/og/default.png">
      <meta property="og:image:alt" content="Veo3 Studio: a video">
      <meta property="og:image:width" content="1200">
      <meta name="description" content="/not-a-link">
      <a href="/pricing?x=1&amp;y=2#plans">Pricing</a>
      <img src='/cover.png' srcset="/cover-1x.png 1x, /cover-2x.png 2x" alt="">
      <video poster=/poster.jpg><source src="/clip.mp4" type="video/mp4"></video>
      <astro-island component-url="/_astro/Header.js" renderer-url="/_astro/client.js"></astro-island>
      <script>if (a<b && c>d) { x = '<a href="/from-code">'; }</script>
    `;
    expect(extractUrls(html)).toEqual([
      '/_astro/a.css',
      'https://example.test/og/default.png',
      '/pricing?x=1&y=2#plans',
      '/cover.png',
      '/cover-1x.png',
      '/cover-2x.png',
      '/poster.jpg',
      '/clip.mp4',
      '/_astro/Header.js',
      '/_astro/client.js',
    ]);
  });
});
