import { gzipSync } from 'node:zlib';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { init, parse } from 'es-module-lexer';

/**
 * Issue 6, Budgets: the home page sends at most 90 KB of JavaScript, gzip. Counted without a
 * browser from the release the server serves: every script the HTML names (module scripts,
 * modulepreloads, each island's component-url, renderer-url and before-hydration-url), every
 * chunk those import statically, and the inline scripts, each as the server sends it to a
 * gzip-only client. Chunks reached only through import() load on demand and are not counted.
 */
const HOME_JS_BUDGET_BYTES = 90 * 1024;

const SCRIPT_URLS = [
  /<script\b[^>]*\bsrc="([^"]+)"/g,
  /<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g,
  /<link\b[^>]*\bhref="([^"]+)"[^>]*\brel="modulepreload"/g,
  /\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g,
];
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/g;

const decodeAttr = (value: string) =>
  value.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#39;', "'");

/** Same-origin script paths a page's HTML names, and its executable inline scripts. */
function scriptsOf(html: string, pageUrl: string) {
  const origin = new URL(pageUrl).origin;
  const external = new Set<string>();
  for (const pattern of SCRIPT_URLS) {
    for (const match of html.matchAll(pattern)) {
      const url = new URL(decodeAttr(match[1]!), pageUrl);
      if (url.origin === origin && url.pathname) external.add(url.pathname);
    }
  }
  const inline: string[] = [];
  for (const [, attrs = '', body = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (/\bsrc=/.test(attrs)) continue;
    const type = /\btype="([^"]+)"/.exec(attrs)?.[1];
    if (type && type !== 'module' && type !== 'text/javascript') continue; // JSON-LD, data
    inline.push(body);
  }
  return { external, inline };
}

/** Specifiers of a module's static imports and re-exports (not import(), not import.meta). */
function staticImports(source: string): string[] {
  const [imports] = parse(source);
  return imports.filter((entry) => entry.d === -1 && entry.n).map((entry) => entry.n!);
}

interface Weight {
  file: string;
  bytes: number;
}

/** Every script the page loads up front, with its gzip size as sent. */
async function homeScriptWeights(request: APIRequestContext, baseURL: string): Promise<Weight[]> {
  await init;
  const pageUrl = new URL('/', baseURL).href;
  const page = await request.get(pageUrl);
  expect(page.status()).toBe(200);
  const { external, inline } = scriptsOf(await page.text(), pageUrl);
  expect(external.size, 'the home page names no script: the parser missed them').toBeGreaterThan(0);

  const weights: Weight[] = inline.map((body, i) => ({
    file: `inline script ${i + 1}`,
    bytes: gzipSync(body, { level: 9 }).length,
  }));
  for (const body of inline) {
    for (const specifier of staticImports(body)) external.add(new URL(specifier, pageUrl).pathname);
  }

  const queue = [...external];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.shift()!;
    const res = await request.get(file, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status(), `${file} is referenced by the home page`).toBe(200);
    const source = await res.text();
    const raw = Buffer.byteLength(source);
    const headers = res.headers();
    // Compression is part of the budget: the server gzips every script worth it (over 512 B).
    if (raw > 1024) expect(headers['content-encoding'], `${file} is sent gzipped`).toBe('gzip');
    const sent = headers['content-encoding'] === 'gzip' ? Number(headers['content-length']) : raw;
    weights.push({ file, bytes: sent });
    for (const specifier of staticImports(source)) {
      const next = new URL(specifier, new URL(file, baseURL)).pathname;
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return weights;
}

test('the home page sends at most 90 KB of JavaScript, gzip', async ({ request, baseURL }) => {
  const weights = await homeScriptWeights(request, baseURL!);
  const total = weights.reduce((sum, w) => sum + w.bytes, 0);
  const breakdown = weights
    .sort((a, b) => b.bytes - a.bytes)
    .map((w) => `${(w.bytes / 1024).toFixed(1).padStart(6)} KB  ${w.file}`)
    .join('\n');
  test.info().annotations.push({
    type: 'home page JavaScript',
    description: `${(total / 1024).toFixed(1)} KB gzip (budget 90 KB)\n${breakdown}`,
  });
  expect(
    total,
    `home page JavaScript is ${(total / 1024).toFixed(1)} KB gzip:\n${breakdown}`,
  ).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
});
