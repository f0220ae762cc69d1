import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSitePath } from '../../server/core/static-site.ts';
import { inlineScriptHashes, listFiles } from '../../server/domains/site-build/release.ts';

const files = new Set([
  'index.html',
  'login.html',
  '404.html',
  '_astro/app.abc123.js',
  'blog/index.html',
]);

describe('resolveSitePath', () => {
  it.each([
    ['/', 'index.html'],
    ['/login', 'login.html'],
    ['/login.html', 'login.html'],
    ['/blog', 'blog/index.html'],
    ['/_astro/app.abc123.js', '_astro/app.abc123.js'],
    ['/missing', null],
    ['/../etc/passwd', null],
    ['/%2e%2e/etc/passwd', null],
    ['/%E0%A4%A', null],
    ['/login%00', null],
  ])('maps %s to %s', (url, expected) => {
    expect(resolveSitePath(url, files)).toBe(expected);
  });
});

describe('inlineScriptHashes', () => {
  it('hashes executable inline scripts only', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'release-'));
    await mkdir(path.join(dir, 'sub'));
    await writeFile(
      path.join(dir, 'index.html'),
      '<script>console.log(1)</script><script src="/x.js"></script><script type="application/ld+json">{}</script>',
    );
    await writeFile(
      path.join(dir, 'sub', 'page.html'),
      '<script type="module">console.log(1)</script>',
    );
    const listed = await listFiles(dir);
    expect(listed).toEqual(['index.html', 'sub/page.html']);
    // sha256 of "console.log(1)", base64
    expect(await inlineScriptHashes(dir, listed)).toEqual([
      'sha256-CihokcEcBW4atb/CW/XWsvWwbTjqwQlE9nj9ii5ww5M=',
    ]);
  });
});
