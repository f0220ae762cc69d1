/**
 * SITE_PUBLISH=s3: each build is uploaded to the bucket (s3rver) file by file, then the live
 * pointer moves; other instances, each with its own DATA_DIR and the same database, download it
 * when notified or when their poll finds it; a hook runs after the switch; old releases leave the
 * bucket. The site is rendered by a stand-in for `astro build` (a handful of files named after
 * the release) so each release takes milliseconds; everything after the render is the real code.
 */
import {
  chmod,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  readlink,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { createS3MediaStore, type MediaStore } from '../../server/core/media-store/index.ts';
import {
  LIVE_POINTER_KEY,
  readLivePointer,
} from '../../server/domains/site-build/release-publish.ts';
import { siteDirs } from '../../server/domains/site-build/release.ts';
import { buildTestApp, createTestApp, testConfig, type TestApp } from '../helpers/app.ts';
import { databaseKinds, type TestDatabase } from '../helpers/database.ts';
import { captureLogEntries } from '../helpers/logs.ts';
import { startS3Server, type TestS3Server } from '../helpers/s3.ts';

/** Reads the pointer in the bucket, records what the local `current` is, fails when told to. */
const HOOK_SCRIPT = `
import { appendFileSync, existsSync, readlinkSync } from 'node:fs';
import path from 'node:path';
const [log, current, pointerUrl, failFlag] = process.argv.slice(2);
const pointer = await (await fetch(pointerUrl)).json();
const seen = { id: process.env.RELEASE_ID, current: path.basename(readlinkSync(current)), pointer: pointer.id };
appendFileSync(log, JSON.stringify(seen) + '\\n');
if (existsSync(failFlag)) {
  console.error('CDN purge refused');
  process.exit(3);
}
console.log('CDN purged');
`;

interface PutEvent {
  key: string;
  at: 'start' | 'end';
}

/** The stand-in for `astro build`: a few pages, hashed assets and an image, named by release. */
function createRenderer() {
  const intervals: Array<{ start: number; end: number }> = [];
  let delayMs = 0;
  return {
    intervals,
    setDelay: (ms: number) => (delayMs = ms),
    async render(outDir: string) {
      const start = Date.now();
      const id = path.basename(outDir);
      const files: Record<string, string | Buffer> = {
        'index.html': `<!doctype html><title>Home</title><p>release ${id}</p>`,
        'pricing.html': `<!doctype html><title>Pricing</title><p>pricing of ${id}</p>`,
        '404.html': '<!doctype html><title>Not found</title>',
        'blog/article-shell.html': '<!doctype html><title>Article</title>',
        [`_astro/app.${id.slice(-8)}.js`]: `console.log(${JSON.stringify(id)});`,
        [`_astro/site.${id.slice(-8)}.css`]: 'body{margin:0}',
        'og/card.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
        'sitemap-index.xml': '<?xml version="1.0"?><sitemapindex/>',
      };
      for (const [file, body] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(outDir, file)), { recursive: true });
        await writeFile(path.join(outDir, file), body);
      }
      if (delayMs) await sleep(delayMs);
      intervals.push({ start, end: Date.now() });
    },
  };
}

describe.each(databaseKinds)('site releases published to the bucket (%s)', (kind) => {
  let s3: TestS3Server;
  let bucket: MediaStore;
  let a: TestApp;
  let b: TestApp;
  let work: string;
  let hookLog: string;
  let failFlag: string;
  const others: TestApp[] = [];
  const events: PutEvent[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failPut: RegExp | null = null;
  const renderer = createRenderer();
  const logs = captureLogEntries<{ msg: string; level: number; stderr?: string }>();

  /** What instance A stores with: the bucket, with every put recorded and one failing on demand. */
  const recording = (store: MediaStore): MediaStore => ({
    ...store,
    async put(key, body, options) {
      events.push({ key, at: 'start' });
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        if (failPut?.test(key)) {
          await sleep(20);
          throw new Error(`injected failure: the bucket refused ${key}`);
        }
        await store.put(key, body, options);
      } finally {
        inFlight -= 1;
        events.push({ key, at: 'end' });
      }
    },
  });

  const siteEnv = () => ({ ...s3.env, SERVE_SITE: 'true', SITE_PUBLISH: 's3' });

  /** Another instance: its own DATA_DIR and bucket client, A's database. */
  async function sibling(
    env: Record<string, string> = {},
    deps: { releasePollMs?: number; siteRenderer?: (dir: string) => Promise<void> } = {},
  ): Promise<TestApp> {
    let database: TestDatabase;
    if (kind === 'pglite') {
      // One PGlite serves one process: the instances share it here, as one process would.
      database = { ...a.database, dispose: async () => {} };
    } else {
      const pool = openPostgres(a.database.url!, 3);
      database = { ...pool, url: a.database.url, dispose: () => pool.close() };
    }
    const t = await buildTestApp(database, {
      env: { ...siteEnv(), ...env },
      deps: {
        siteRenderer: renderer.render,
        publishDebounceMs: 10,
        releasePollMs: 3_600_000,
        ...deps,
      },
    });
    others.push(t);
    return t;
  }

  const pointer = async () => (await readLivePointer(bucket))!;
  const keysUnder = async (prefix: string) => {
    const keys: string[] = [];
    for await (const key of bucket.list(prefix)) keys.push(key);
    return keys;
  };
  const releaseIds = async () =>
    [...new Set((await keysUnder('releases/')).map((key) => key.split('/')[1]!))]
      .filter((id) => id !== 'live.json')
      .sort();
  const home = async (t: TestApp) => (await t.app.inject({ url: '/' })).body;
  const hookRuns = async () =>
    (await readFile(hookLog, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id: string; current: string; pointer: string });
  const rebuild = async (t: TestApp) => {
    t.app.publisher.schedule();
    await t.app.publisher.idle();
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    work = await mkdtemp(path.join(tmpdir(), 'veo3-publish-'));
    hookLog = path.join(work, 'hook.log');
    failFlag = path.join(work, 'hook-fails');
    const script = path.join(work, 'hook.mjs');
    await writeFile(script, HOOK_SCRIPT);
    await chmod(script, 0o755);
    const dataDir = path.join(work, 'data-a');
    const pointerUrl = `${s3.endpoint}/${s3.bucket}/${LIVE_POINTER_KEY}`;
    const current = siteDirs(dataDir).current;
    bucket = createS3MediaStore(testConfig(work, siteEnv()).scale.s3!);
    a = await createTestApp(kind, {
      env: {
        ...siteEnv(),
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
        LOG_FORMAT: 'json',
        SITE_PUBLISH_HOOK: [process.execPath, script, hookLog, current, pointerUrl, failFlag].join(
          ' ',
        ),
      },
      deps: {
        mediaStore: recording(bucket),
        siteRenderer: renderer.render,
        publishDebounceMs: 10,
        releasePollMs: 3_600_000,
        logStream: logs.stream,
      },
    });
  }, 60_000);

  afterAll(async () => {
    for (const t of others.reverse()) await t.close();
    await a?.close();
    await bucket?.close();
    await s3?.close();
    await rm(work, { recursive: true, force: true });
  });

  it('with an empty bucket, builds, uploads every file and writes the pointer last', async () => {
    const manifest = (await a.app.publisher.ensureCurrent())!;
    const prefix = `releases/${manifest.id}/`;
    expect((await keysUnder(prefix)).sort()).toEqual(
      [...manifest.files, 'release.json'].map((file) => prefix + file).sort(),
    );
    // Every object of the release was complete before the pointer write began.
    const pointerStart = events.findIndex((e) => e.key === LIVE_POINTER_KEY && e.at === 'start');
    const lastFileEnd = events.findLastIndex((e) => e.key.startsWith(prefix) && e.at === 'end');
    expect(pointerStart).toBeGreaterThan(lastFileEnd);
    expect(events.filter((e) => e.at === 'start').at(-1)!.key).toBe(LIVE_POINTER_KEY);
    expect(maxInFlight).toBeGreaterThan(1);
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(await pointer()).toMatchObject({
      id: manifest.id,
      builtAt: manifest.builtAt,
      files: manifest.files.length,
      previous: null,
      sourceHash: manifest.sourceHash,
    });

    // Stored with the types and cache policies the app answers with itself.
    const headers = async (file: string) => {
      const res = await fetch(`${s3.endpoint}/${s3.bucket}/${prefix}${file}`);
      expect(res.status, file).toBe(200);
      await res.arrayBuffer();
      return [res.headers.get('content-type'), res.headers.get('cache-control')];
    };
    const script = manifest.files.find((f) => f.startsWith('_astro/') && f.endsWith('.js'))!;
    expect(await headers(script)).toEqual([
      'application/javascript; charset=UTF-8',
      'public, max-age=31536000, immutable',
    ]);
    expect(await headers('index.html')).toEqual([
      'text/html; charset=UTF-8',
      'public, max-age=0, must-revalidate',
    ]);
    expect(await headers('og/card.png')).toEqual([
      'image/png',
      'public, max-age=0, must-revalidate',
    ]);
    const bytes = await bucket.get(`${prefix}og/card.png`);
    expect(bytes!.size).toBe(11);
    await bytes!.body.resume();

    expect(await home(a)).toContain(`release ${manifest.id}`);
    // The hook ran once, after the pointer and this instance's `current` both named the release.
    expect(await hookRuns()).toEqual([
      { id: manifest.id, current: manifest.id, pointer: manifest.id },
    ]);
    const finished = logs.lines.find((line) => line.msg === 'site publish hook finished');
    expect(finished).toMatchObject({ stdout: 'CDN purged' });
  });

  it('a second instance with its own DATA_DIR serves each new release once notified', async () => {
    // Polls once an hour: only the notification (or listening starting) can move it.
    b = await sibling();
    const first = (await pointer()).id;
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${first}`), {
      timeout: 5000,
      interval: 50,
    });
    await rebuild(a);
    const next = await pointer();
    expect(next.id).not.toBe(first);
    expect(next.previous).toBe(first);
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${next.id}`), {
      timeout: 5000,
      interval: 50,
    });
    // Downloaded into B's own data directory, and switched there.
    expect(path.basename(await readlink(siteDirs(b.dataDir).current))).toBe(next.id);
    expect(b.app.siteRelease.id).toBe(next.id);
    const pricing = await b.app.inject({ url: '/pricing' });
    expect(pricing.body).toContain(`pricing of ${next.id}`);
    const png = await b.app.inject({ url: '/og/card.png' });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload).toHaveLength(11);
  });

  it('an instance without notifications finds a new release by polling the pointer', async () => {
    const c = await sibling({ DATABASE_NOTIFY: 'poll' }, { releasePollMs: 150 });
    const live = (await pointer()).id;
    await vi.waitFor(async () => expect(await home(c)).toContain(`release ${live}`), {
      timeout: 5000,
      interval: 50,
    });
    await rebuild(a);
    const next = (await pointer()).id;
    expect(next).not.toBe(live);
    await vi.waitFor(async () => expect(await home(c)).toContain(`release ${next}`), {
      timeout: 5000,
      interval: 50,
    });
  });

  it('a failed upload leaves the pointer, this instance and the others on the previous release', async () => {
    const live = (await pointer()).id;
    const seen = events.length;
    failPut = /\/pricing\.html$/;
    try {
      await rebuild(a);
    } finally {
      failPut = null;
    }
    const failed = events
      .slice(seen)
      .find((e) => /\/pricing\.html$/.test(e.key))!
      .key.split('/')[1]!;
    expect(failed).not.toBe(live);
    expect(a.app.publisher.status().error).toMatch(
      new RegExp(`Uploading site release ${failed} to s3://${s3.bucket}.* failed`),
    );
    expect(events.slice(seen).some((e) => e.key === LIVE_POINTER_KEY)).toBe(false);
    expect((await pointer()).id).toBe(live);
    expect(a.app.siteRelease.id).toBe(live);
    expect(path.basename(await readlink(siteDirs(a.config.dataDir).current))).toBe(live);
    expect(await home(a)).toContain(`release ${live}`);
    // What went up of it was removed again, here and in the bucket.
    expect(await readdir(siteDirs(a.config.dataDir).releases)).not.toContain(failed);
    expect(await keysUnder(`releases/${failed}/`)).toEqual([]);
    expect(await releaseIds()).not.toContain(failed);
    // B reads the pointer now (as its poll would): it still names the previous release.
    await b.app.releaseSync!.syncNow();
    expect(await home(b)).toContain(`release ${live}`);
    expect((await hookRuns()).map((run) => run.id)).not.toContain(failed);
  });

  it('a failing hook is logged and counted, and the release it followed stays live', async () => {
    await writeFile(failFlag, '');
    try {
      await rebuild(a);
    } finally {
      await rm(failFlag);
    }
    const live = await pointer();
    expect(a.app.publisher.status()).toMatchObject({ error: null, releaseId: live.id });
    expect(a.app.siteRelease.id).toBe(live.id);
    expect((await hookRuns()).at(-1)).toEqual({ id: live.id, current: live.id, pointer: live.id });
    const failure = logs.lines.find((line) =>
      line.msg.startsWith('site publish hook exited with 3'),
    );
    expect(failure).toMatchObject({ level: 50, stderr: 'CDN purge refused' });
    const counted = await a.app.metrics.registry.getSingleMetricAsString(
      'site_publish_hook_failures_total',
    );
    expect(counted).toMatch(/^site_publish_hook_failures_total 1$/m);
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${live.id}`), {
      timeout: 5000,
      interval: 50,
    });
  });

  it('keeps three releases in the bucket (the live and previous among them) and deletes the rest', async () => {
    const before = await releaseIds();
    await rebuild(a);
    await rebuild(a);
    const live = await pointer();
    const ids = await releaseIds();
    expect(ids).toHaveLength(3);
    expect(ids).toContain(live.id);
    expect(ids).toContain(live.previous);
    for (const gone of before.filter((id) => !ids.includes(id))) {
      expect(await keysUnder(`releases/${gone}/`)).toEqual([]);
    }
    expect(before.filter((id) => !ids.includes(id)).length).toBeGreaterThan(0);
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${live.id}`), {
      timeout: 5000,
      interval: 50,
    });
  });

  it('at start-up, an instance takes the live release from the bucket instead of building', async () => {
    let renders = 0;
    const d = await sibling(
      { DATABASE_NOTIFY: 'poll' },
      {
        siteRenderer: async (dir) => {
          renders += 1;
          await renderer.render(dir);
        },
      },
    );
    const live = await pointer();
    const manifest = (await d.app.publisher.ensureCurrent())!;
    expect(manifest.id).toBe(live.id);
    expect(renders).toBe(0);
    expect((await pointer()).id).toBe(live.id);
    expect(path.basename(await readlink(siteDirs(d.dataDir).current))).toBe(live.id);
    expect(await home(d)).toContain(`release ${live.id}`);
  });

  it('at start-up, an instance whose sources differ from the live release builds and publishes', async () => {
    const live = await pointer();
    const e = await sibling({ DATABASE_NOTIFY: 'poll', PUBLIC_SITE_URL: 'https://other.example' });
    const manifest = (await e.app.publisher.ensureCurrent())!;
    expect(manifest.id).not.toBe(live.id);
    expect(await pointer()).toMatchObject({ id: manifest.id, previous: live.id });
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${manifest.id}`), {
      timeout: 5000,
      interval: 50,
    });
  });

  it('SERVE_SITE=false with SITE_PUBLISH=s3 builds and publishes, but serves no pages', async () => {
    const api = await sibling({ SERVE_SITE: 'false' });
    expect(api.app.siteBuilder).not.toBeNull();
    expect(api.app.releaseSync).toBeNull();
    const live = (await pointer()).id;
    await rebuild(api);
    const next = (await pointer()).id;
    expect(next).not.toBe(live);
    expect(api.app.publisher.status().releaseId).toBe(next);
    expect((await api.app.inject({ url: '/' })).statusCode).toBe(404);
    await vi.waitFor(async () => expect(await home(b)).toContain(`release ${next}`), {
      timeout: 5000,
      interval: 50,
    });
  });

  it.runIf(kind === 'postgres')(
    'two instances on one PostgreSQL build and publish one at a time',
    async () => {
      renderer.setDelay(200);
      const seen = renderer.intervals.length;
      try {
        a.app.publisher.schedule();
        b.app.publisher.schedule();
        await Promise.all([a.app.publisher.idle(), b.app.publisher.idle()]);
      } finally {
        renderer.setDelay(0);
      }
      const runs = renderer.intervals.slice(seen).sort((x, y) => x.start - y.start);
      expect(runs).toHaveLength(2);
      expect(runs[1]!.start).toBeGreaterThanOrEqual(runs[0]!.end);
      const live = (await pointer()).id;
      for (const t of [a, b]) {
        await vi.waitFor(async () => expect(await home(t)).toContain(`release ${live}`), {
          timeout: 5000,
          interval: 50,
        });
      }
    },
  );
});
