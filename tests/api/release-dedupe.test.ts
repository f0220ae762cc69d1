/**
 * Kept site releases share their unchanged files (issue 19, item 5): a new release's files whose
 * bytes equal the live release's become hard links to them, built here or downloaded from the
 * bucket, so DATA_DIR grows with what changed. The site is rendered by a stand-in for
 * `astro build` (a handful of files, one of them ~200 KB) so each release takes milliseconds;
 * everything after the render is the real code.
 */
import { lstat, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStore } from '../../server/core/media-store/index.ts';
import { releaseKey } from '../../server/domains/site-build/release-publish.ts';
import { downloadRelease } from '../../server/domains/site-build/release-sync.ts';
import {
  MANIFEST,
  pruneReleases,
  readManifest,
  siteDirs,
  type ReleaseManifest,
} from '../../server/domains/site-build/release.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { captureLogEntries } from '../helpers/logs.ts';

/** A script big enough that sharing it shows on disk; the same bytes in every release. */
const BUNDLE = `console.log(${JSON.stringify('x'.repeat(200_000))});`;

/** The stand-in for `astro build`: the home page names the version, everything else is fixed. */
function createRenderer() {
  const state = { version: 1 };
  return {
    state,
    async render(outDir: string) {
      const files: Record<string, string | Buffer> = {
        'index.html': `<!doctype html><title>Home</title><p>version ${state.version}</p>`,
        'pricing.html': '<!doctype html><title>Pricing</title><p>Plans</p>',
        '404.html': '<!doctype html><title>Not found</title>',
        'blog/article-shell.html': '<!doctype html><title>Article</title>',
        '_astro/app.3f9a1c2e.js': BUNDLE,
        '_astro/site.77aa01bc.css': 'body{margin:0}',
        'og/card.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
      };
      for (const [file, body] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
        await writeFile(path.join(outDir, file), body);
      }
    },
  };
}

/** Bytes the releases take on disk: each inode counted once, however many links it has. */
async function diskBytes(dir: string): Promise<number> {
  const seen = new Map<string, number>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries.filter((e) => e.isFile())) {
    const info = await lstat(path.join(entry.parentPath, entry.name));
    seen.set(`${info.dev}:${info.ino}`, info.size);
  }
  return [...seen.values()].reduce((sum, size) => sum + size, 0);
}

describe.each(databaseKinds)('site releases share unchanged files (%s)', (kind) => {
  let t: TestApp;
  const renderer = createRenderer();
  const logs = captureLogEntries<{ msg: string; shared?: number; sharedBytes?: number }>();
  let first: ReleaseManifest;
  let second: ReleaseManifest;
  const releaseDir = (id: string) => path.join(siteDirs(t.dataDir).releases, id);
  const fileOf = (id: string, file: string) => path.join(releaseDir(id), ...file.split('/'));

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: { SERVE_SITE: 'true', LOG_LEVEL: 'info', LOG_FORMAT: 'json' },
      deps: { siteRenderer: renderer.render, logStream: logs.stream },
    });
  });
  afterAll(() => t?.close());

  it('links every unchanged file of a new build to the live release and copies nothing else', async () => {
    first = await t.app.siteBuilder!.build();
    expect(logs.lines.map((l) => l.msg)).toContain(
      'shared 0 of 7 files with the previous release (0.0 MB)',
    );
    const before = await diskBytes(siteDirs(t.dataDir).releases);

    renderer.state.version = 2;
    second = await t.app.siteBuilder!.build();
    expect(second.files).toEqual(first.files);
    const unchanged = second.files.filter((f) => f !== 'index.html');
    for (const file of unchanged) {
      const [old, now] = await Promise.all([
        stat(fileOf(first.id, file)),
        stat(fileOf(second.id, file)),
      ]);
      expect(now.ino, file).toBe(old.ino);
      expect(now.nlink, file).toBeGreaterThanOrEqual(2);
    }
    const [oldHome, newHome] = await Promise.all([
      stat(fileOf(first.id, 'index.html')),
      stat(fileOf(second.id, 'index.html')),
    ]);
    expect(newHome.ino).not.toBe(oldHome.ino);
    expect(newHome.nlink).toBe(1);
    // No temporary link is left beside the files.
    expect(
      (await readdir(releaseDir(second.id), { recursive: true })).filter((f) =>
        f.includes('.share-'),
      ),
    ).toEqual([]);

    // The disk grew by the changed page and the new manifest only, not by a second copy (the
    // stand-in renders the whole site: there is no index of blog pages built apart).
    const ownBytes = async (file: string) =>
      (await stat(path.join(releaseDir(second.id), file))).size;
    expect(await diskBytes(siteDirs(t.dataDir).releases)).toBe(
      before + newHome.size + (await ownBytes(MANIFEST)),
    );

    let sharedBytes = 0;
    for (const file of unchanged) sharedBytes += (await stat(fileOf(second.id, file))).size;
    expect(sharedBytes).toBeGreaterThan(200_000);
    const line = logs.lines.findLast((l) => l.msg.startsWith('shared '))!;
    expect(line).toMatchObject({
      msg: `shared 6 of 7 files with the previous release (${(sharedBytes / 1048576).toFixed(1)} MB)`,
      shared: 6,
      sharedBytes,
    });
  });

  it('serves the new release with its own home page and the shared files', async () => {
    expect((await t.app.inject({ url: '/' })).body).toContain('version 2');
    const pricing = await t.app.inject({ url: '/pricing' });
    expect(pricing.statusCode).toBe(200);
    expect(pricing.body).toContain('Plans');
    const script = await t.app.inject({ url: '/_astro/app.3f9a1c2e.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toBe(BUNDLE);
  });

  it('pruning the older release leaves the newer one whole', async () => {
    await pruneReleases(t.dataDir, 1);
    await expect(stat(releaseDir(first.id))).rejects.toThrow(/ENOENT/);
    expect(await readFile(fileOf(second.id, '_astro/app.3f9a1c2e.js'), 'utf8')).toBe(BUNDLE);
    for (const file of second.files) {
      const info = await stat(fileOf(second.id, file));
      expect(info.nlink, file).toBe(1);
      expect((await readFile(fileOf(second.id, file))).length, file).toBe(info.size);
    }
    expect((await t.app.inject({ url: '/pricing' })).body).toContain('Plans');
    expect((await t.app.inject({ url: '/' })).body).toContain('version 2');
  });

  it('a release downloaded from the bucket shares its unchanged files with the live one', async () => {
    const storeDir = path.join(tmpdir(), `veo3-dedupe-store-${process.pid}-${Date.now()}`);
    const store = createLocalMediaStore(storeDir);
    try {
      // Release 3 as another instance published it: release 2 with a new home page.
      const id = `${second.id.split('-')[0]}-synced`;
      const manifest: ReleaseManifest = { ...second, id };
      for (const file of second.files) {
        const body =
          file === 'index.html'
            ? '<!doctype html><title>Home</title><p>version 3</p>'
            : await readFile(fileOf(second.id, file));
        await store.put(releaseKey(id, file), body, { contentType: 'application/octet-stream' });
      }
      await store.put(releaseKey(id, MANIFEST), JSON.stringify(manifest), {
        contentType: 'application/json',
      });
      const messages: string[] = [];
      const record = (_obj: object, msg?: string) => void messages.push(msg ?? '');
      const log = { info: record, warn: record, error: record };

      await downloadRelease(store, t.dataDir, id, log);

      expect((await readManifest(releaseDir(id)))?.id).toBe(id);
      for (const file of second.files.filter((f) => f !== 'index.html')) {
        expect((await stat(fileOf(id, file))).ino, file).toBe(
          (await stat(fileOf(second.id, file))).ino,
        );
      }
      expect(await readFile(fileOf(id, 'index.html'), 'utf8')).toContain('version 3');
      expect((await stat(fileOf(id, 'index.html'))).nlink).toBe(1);
      expect(messages).toEqual([
        expect.stringMatching(/^shared 6 of 7 files with the previous release \(0\.2 MB\)$/),
      ]);
    } finally {
      await store.close();
      await rm(storeDir, { recursive: true, force: true });
    }
  });
});
