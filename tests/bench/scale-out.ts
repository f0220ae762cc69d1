/**
 * `npm run bench` section `scale` (issue 18): what the scale-out pieces cost and give.
 *
 * - Media store throughput through both adapters (server/core/media-store): a 64 MiB file put
 *   4 times (streamed from disk), got back 4 times (streamed and counted, not kept), and 50 reads
 *   of 1 MiB at random offsets, with this process's RSS growth meanwhile. Then whether the S3
 *   adapter streams: RSS grows alike for a put and a get of a 64 MiB and of a 256 MiB object
 *   (streamingCheck). The S3 adapter talks to s3rver in a child process (s3-server.ts), so the
 *   bucket's CPU is not this process's.
 * - The same through the app: GET /media/{file} of an 8 MiB object (random bytes named .mp4) from
 *   `server/main.ts`, streamed by the app (local files) or answered with a 302 to a presigned URL
 *   and fetched from the bucket.
 * - Request throughput with two API instances on one PostgreSQL versus one instance.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import {
  createLocalMediaStore,
  createS3MediaStore,
  type MediaStore,
} from '../../server/core/media-store/index.ts';
import { median, type Figure } from '../helpers/measure.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import { sleep } from '../helpers/process.ts';

type StartProcess = (
  script: string,
  env: Record<string, string>,
) => Promise<{ child: ChildProcess; port: number }>;

const MiB = 1024 * 1024;
const OBJECT_BYTES = 64 * MiB;
const PUTS = 4;
const RANGE_BYTES = MiB;
const RANGE_READS = 50;
/** The streaming check's larger object: BIG_FACTOR × OBJECT_BYTES. */
const BIG_FACTOR = 4;
const APP_VIDEO_BYTES = 8 * MiB;
const APP_CLIENTS = 4;
const APP_SECONDS = 5;
const duration = Number(process.env.BENCH_DURATION ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

const round = (value: number, digits = 1) => +value.toFixed(digits);
const mibPerSecond = (bytes: number, ms: number) => round(bytes / MiB / (ms / 1000));

/** A file of `bytes` random bytes (incompressible), written 1 MiB at a time. */
async function randomFile(file: string, bytes: number): Promise<void> {
  async function* chunks() {
    for (let written = 0; written < bytes; written += MiB) yield randomBytes(MiB);
  }
  await pipeline(Readable.from(chunks()), createWriteStream(file));
}

/** Reads a body to its end, keeping nothing: the bytes it held. */
async function drain(body: Readable | ReadableStream<Uint8Array> | null): Promise<number> {
  let bytes = 0;
  if (body instanceof Readable) {
    for await (const chunk of body) bytes += (chunk as Buffer).length;
  } else if (body) {
    const reader = body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      bytes += read.value.length;
    }
  }
  return bytes;
}

/**
 * V8's full garbage collection, which node runs only with --expose-gc: the flag set now applies
 * to contexts made after it (runInNewContext's), which then have `gc`.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

/**
 * The growth of this process's RSS from now until `stop` (its highest, sampled every 10 ms).
 * Garbage is collected first (twice, the second after the sweeper has freed the first's
 * buffers), so what earlier work left behind is not in the baseline; none is collected during the
 * run, so the growth includes Buffers already dropped that V8 has not freed yet (it collects them
 * lazily, once tens of MiB have built up).
 */
async function watchRss() {
  collectGarbage();
  await sleep(100);
  collectGarbage();
  const base = process.memoryUsage.rss();
  let peak = base;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  const timer = setInterval(sample, 10);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak - base;
    },
  };
}

interface StoreResult {
  adapter: 'local' | 's3';
  upMiBps: number;
  downMiBps: number;
  rangeP50: number;
  /** RSS growth during the timed puts, gets and range reads. */
  rssMiB: number;
}

const toMiB = (bytes: number) => round(bytes / MiB);

/** Puts, gets and range reads of the 64 MiB `file` through one store. */
async function storeThroughput(store: MediaStore, file: string): Promise<StoreResult> {
  const keys = Array.from({ length: PUTS }, (_, i) => `media/bench-scale-${i}.mp4`);
  try {
    const rss = await watchRss();
    let started = performance.now();
    for (const key of keys) await store.put(key, { file }, { contentType: 'video/mp4' });
    const upMs = performance.now() - started;
    started = performance.now();
    for (const key of keys) await getWhole(store, key, OBJECT_BYTES);
    const downMs = performance.now() - started;
    const latencies: number[] = [];
    for (let i = 0; i < RANGE_READS; i++) {
      const start = randomInt(0, OBJECT_BYTES - RANGE_BYTES + 1);
      const key = keys[i % keys.length]!;
      const began = performance.now();
      const object = await store.get(key, { start, end: start + RANGE_BYTES - 1 });
      const bytes = await drain(object?.body ?? null);
      latencies.push(performance.now() - began);
      if (object?.range?.start !== start || bytes !== RANGE_BYTES) {
        throw new Error(
          `${store.description}: range ${start}+${RANGE_BYTES} of ${key} gave ${bytes} bytes from ${object?.range?.start}`,
        );
      }
    }
    return {
      adapter: store.kind,
      upMiBps: mibPerSecond(PUTS * OBJECT_BYTES, upMs),
      downMiBps: mibPerSecond(PUTS * OBJECT_BYTES, downMs),
      rangeP50: round(median(latencies)),
      rssMiB: toMiB(rss.stop()),
    };
  } finally {
    for (const key of keys) await store.delete(key);
  }
}

interface StreamingCheck {
  /** RSS growth during one put, and during one get, of the 64 MiB object. */
  object: { put: number; get: number };
  /** The same for an object BIG_FACTOR× larger. */
  big: { put: number; get: number };
  /** The larger of big − object for put and for get: what the extra bytes cost in memory. */
  extraMiB: number;
}

/**
 * Whether the store streams, told apart from garbage the collector has not freed yet (tens of
 * MiB whatever the size, see watchRss): the RSS growth of one put and of one get of the 64 MiB
 * object, then of an object BIG_FACTOR× larger. Streaming, the growth is the same for both
 * sizes (a put holds a few upload parts); a store holding a whole object would grow by
 * BIG_FACTOR − 1 objects more with the larger one.
 */
async function streamingCheck(
  store: MediaStore,
  object: string,
  big: string,
): Promise<StreamingCheck> {
  const key = 'media/bench-scale-memory.mp4';
  const measure = async (file: string, bytes: number) => {
    let rss = await watchRss();
    await store.put(key, { file }, { contentType: 'video/mp4' });
    const put = toMiB(rss.stop());
    rss = await watchRss();
    await getWhole(store, key, bytes);
    return { put, get: toMiB(rss.stop()) };
  };
  try {
    const small = await measure(object, OBJECT_BYTES);
    const large = await measure(big, BIG_FACTOR * OBJECT_BYTES);
    const extraMiB = round(Math.max(large.put - small.put, large.get - small.get));
    return { object: small, big: large, extraMiB };
  } finally {
    await store.delete(key);
  }
}

/** Reads the whole object at `key`, keeping none of it; throws unless its `size` bytes came. */
async function getWhole(store: MediaStore, key: string, size: number): Promise<void> {
  const object = await store.get(key);
  const bytes = await drain(object?.body ?? null);
  if (bytes !== size) {
    throw new Error(`${store.description}: ${key} read back ${bytes} bytes of ${size}`);
  }
}

interface AppMediaResult {
  adapter: 'local' | 's3';
  reqPerSec: number;
  MiBps: number;
  p50: number;
  /** S3: the app's 302 alone (the rest of p50 is the bucket). */
  redirectP50: number | null;
}

/**
 * APP_CLIENTS clients each fetching GET /media/{file} of an 8 MiB video in a loop for
 * APP_SECONDS (after one fetch each to warm up): from the app, or its 302 then the bucket.
 */
async function appMediaThroughput(
  startProcess: StartProcess,
  adapter: 'local' | 's3',
  s3Env: Record<string, string>,
  video: string,
): Promise<AppMediaResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), `veo3-bench-media-${adapter}-`));
  const store = adapter === 's3' ? s3Store(s3Env) : createLocalMediaStore(dataDir);
  const key = 'media/bench-scale-8mib.mp4';
  await store.put(key, { file: video }, { contentType: 'video/mp4' });
  let server;
  try {
    server = await startProcess('server/main.ts', {
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      SERVE_SITE: 'false',
      VIDEO_WORKER: 'off',
      ...s3Env,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const { child, port } = server;
  const url = `http://127.0.0.1:${port}/media/${path.posix.basename(key)}`;
  try {
    const latencies: number[] = [];
    const redirects: number[] = [];
    let bytes = 0;
    const once = async () => {
      const started = performance.now();
      let res = await fetch(url, { redirect: 'manual' });
      if (adapter === 's3') {
        const location = res.headers.get('location');
        if (res.status !== 302 || !location) {
          throw new Error(`GET ${url} answered ${res.status}, not a 302 to the bucket`);
        }
        await res.body?.cancel();
        redirects.push(performance.now() - started);
        res = await fetch(location);
      }
      const got = await drain(res.body);
      if (res.status !== 200 || got !== APP_VIDEO_BYTES) {
        throw new Error(
          `GET ${res.url} answered ${res.status} with ${got} of ${APP_VIDEO_BYTES} bytes`,
        );
      }
      return { ms: performance.now() - started, got };
    };
    await Promise.all(Array.from({ length: APP_CLIENTS }, once));
    redirects.length = 0;
    const from = performance.now();
    const until = from + APP_SECONDS * 1000;
    await Promise.all(
      Array.from({ length: APP_CLIENTS }, async () => {
        while (performance.now() < until) {
          const { ms, got } = await once();
          latencies.push(ms);
          bytes += got;
        }
      }),
    );
    const ms = performance.now() - from;
    return {
      adapter,
      reqPerSec: round(latencies.length / (ms / 1000)),
      MiBps: mibPerSecond(bytes, ms),
      p50: round(median(latencies)),
      redirectP50: redirects.length ? round(median(redirects)) : null,
    };
  } finally {
    child.kill('SIGTERM');
    await exited(child);
    await store.delete(key).catch(() => {});
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Resolves once `child` has exited (at once if it has). */
function exited(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', resolve));
}

/** The S3 adapter on the bench's s3rver, from the env the app gets. */
function s3Store(env: Record<string, string>): MediaStore {
  return createS3MediaStore({
    bucket: env.S3_BUCKET!,
    region: env.S3_REGION!,
    endpoint: env.S3_ENDPOINT!,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID!, secretAccessKey: env.S3_SECRET_ACCESS_KEY! },
    publicUrl: null,
    urlTtlSeconds: 900,
  });
}

interface Load {
  reqPerSec: number;
  p99: number;
  non2xx: number;
}

/** autocannon on each URL at once (one second of warm-up first, not counted), summed. */
async function load(urls: string[], headers: Record<string, string>): Promise<Load> {
  await Promise.all(urls.map((url) => autocannon({ url, connections, duration: 1, headers })));
  const results = await Promise.all(
    urls.map((url) => autocannon({ url, connections, duration, headers })),
  );
  return {
    reqPerSec: Math.round(results.reduce((sum, r) => sum + r.requests.average, 0)),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
  };
}

interface InstancesRow {
  target: string;
  one: Load;
  two: Load;
  ratio: number;
}

/**
 * Each target on one `server/main.ts`, then on two sharing the PostgreSQL database at `dbUrl`
 * (one autocannon per instance, `connections` each, at the same time).
 *
 * What limits the ratio on this 2-core machine is CPU, not the app: the instances, PostgreSQL and
 * both autocannons (in this process) share the same two cores. One instance's event loop takes
 * about one core and PostgreSQL and autocannon most of the other, so a second instance mostly
 * splits the same CPU time: its gain (ratios of about 1.2 seen here) is the CPU one process left
 * idle while it waited on PostgreSQL, not what a second machine would add. Other work on the
 * machine moves it a lot; compare it with the rows of the same run only.
 */
async function instancesThroughput(
  startProcess: StartProcess,
  dbUrl: string,
): Promise<InstancesRow[]> {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const start = async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-instance-'));
    dirs.push(dataDir);
    const { child, port } = await startProcess('server/main.ts', {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: dbUrl,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      SERVE_SITE: 'false',
      VIDEO_WORKER: 'off',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
    });
    children.push(child);
    return `http://127.0.0.1:${port}`;
  };
  try {
    const a = await start();
    const signIn = await fetch(`${a}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench', email: 'scale@bench.example' }),
    });
    if (!signIn.ok)
      throw new Error(`local sign-in answered ${signIn.status}: ${await signIn.text()}`);
    const { data } = (await signIn.json()) as { data: { token: string } };
    const targets: Array<[string, string, Record<string, string>]> = [
      [
        'GET /api/credits/balance (signed in)',
        '/api/credits/balance',
        { authorization: `Bearer ${data.token}` },
      ],
      ['GET /api/blog/posts?page=1&limit=12', '/api/blog/posts?page=1&limit=12', {}],
    ];
    const one = [];
    for (const [, urlPath, headers] of targets) one.push(await load([a + urlPath], headers));
    const b = await start();
    const rows: InstancesRow[] = [];
    for (const [i, [target, urlPath, headers]] of targets.entries()) {
      // The session made on A must hold on B (one database): a 401 here would be counted as load.
      const check = await fetch(b + urlPath, { headers });
      await check.arrayBuffer();
      if (!check.ok) throw new Error(`${target} on the second instance answered ${check.status}`);
      const two = await load([a + urlPath, b + urlPath], headers);
      rows.push({ target, one: one[i]!, two, ratio: round(two.reqPerSec / one[i]!.reqPerSec, 2) });
    }
    return rows;
  } finally {
    for (const child of children) {
      child.kill('SIGTERM');
      await exited(child);
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** Everything the section measured. */
interface ScaleResults {
  stores: StoreResult[];
  streaming: StreamingCheck;
  app: AppMediaResult[];
  /** The rows, or why there are none. */
  instances: InstancesRow[] | string;
}

function scaleTable({ stores, streaming, app, instances }: ScaleResults): string {
  const big = BIG_FACTOR * OBJECT_BYTES;
  return [
    `Media store: a ${OBJECT_BYTES / MiB} MiB file put ${PUTS}× (streamed from disk), got ${PUTS}× (streamed, counted, not kept), ${RANGE_READS} reads of ${RANGE_BYTES / MiB} MiB at random offsets; s3rver in a child process.`,
    '',
    '| adapter | up MiB/s | down MiB/s | 1 MiB range read p50 ms | bench RSS growth MiB |',
    '|---|---:|---:|---:|---:|',
    ...stores.map(
      (s) => `| ${s.adapter} | ${s.upMiBps} | ${s.downMiBps} | ${s.rangeP50} | ${s.rssMiB} |`,
    ),
    '',
    "- RSS growth includes Buffers already dropped that V8 had not freed yet (it collects them lazily, tens of MiB at a time): the local adapter's plain file streams show that floor.",
    `- s3 streaming check, RSS growth of one put / one get: ${OBJECT_BYTES / MiB} MiB object ${streaming.object.put} / ${streaming.object.get} MiB, ${big / MiB} MiB object ${streaming.big.put} / ${streaming.big.get} MiB: at most ${streaming.extraMiB} MiB more for ${(big - OBJECT_BYTES) / MiB} MiB more bytes (a store holding whole objects would need ≥ ${(big - OBJECT_BYTES) / MiB} MiB more).`,
    '',
    `Through the app: GET /media/{file} of an ${APP_VIDEO_BYTES / MiB} MiB video, ${APP_CLIENTS} clients for ${APP_SECONDS} s (s3: the app's 302, then the presigned URL).`,
    '',
    '| adapter | downloads/s | MiB/s | p50 ms (whole download) | 302 p50 ms |',
    '|---|---:|---:|---:|---:|',
    ...app.map(
      (r) => `| ${r.adapter} | ${r.reqPerSec} | ${r.MiBps} | ${r.p50} | ${r.redirectP50 ?? '-'} |`,
    ),
    '',
    `Two API instances vs one (PostgreSQL, ${connections} connections per instance, ${duration} s after 1 s warm-up; both autocannons in the bench process, all on the same cores).`,
    '',
    ...(typeof instances === 'string'
      ? [instances]
      : [
          '| target | one: req/s | p99 ms | two: req/s (sum) | p99 ms (worse) | two ÷ one | non-2xx/errors |',
          '|---|---:|---:|---:|---:|---:|---:|',
          ...instances.map(
            (r) =>
              `| ${r.target} | ${r.one.reqPerSec} | ${r.one.p99} | ${r.two.reqPerSec} | ${r.two.p99} | ${r.ratio} | ${r.one.non2xx + r.two.non2xx} |`,
          ),
        ]),
  ].join('\n');
}

function figuresOf({ stores, streaming, app, instances }: ScaleResults): Figure[] {
  const figures: Figure[] = [];
  for (const s of stores) {
    const at = `media store ${s.adapter}, ${OBJECT_BYTES / MiB} MiB object`;
    figures.push(
      { name: `${at}: put (streamed from a file)`, value: s.upMiBps, unit: 'MiB/s' },
      { name: `${at}: get (streamed)`, value: s.downMiBps, unit: 'MiB/s' },
      { name: `${at}: 1 MiB range read p50`, value: s.rangeP50, unit: 'ms' },
      {
        name: `${at}: bench RSS growth during the puts, gets and range reads (garbage not yet freed included)`,
        value: s.rssMiB,
        unit: 'MiB',
      },
    );
  }
  const extraBytes = (BIG_FACTOR - 1) * OBJECT_BYTES;
  figures.push({
    name: `media store s3 streams: RSS growth of one put or get of a ${(BIG_FACTOR * OBJECT_BYTES) / MiB} MiB object minus that of the ${OBJECT_BYTES / MiB} MiB one (put ${streaming.big.put} − ${streaming.object.put}, get ${streaming.big.get} − ${streaming.object.get}; the larger)`,
    value: streaming.extraMiB,
    unit: 'MiB',
    // Midway between the two cases: streaming, the difference is garbage not yet freed (V8
    // collects Buffers once about 64 MiB of them have built up, so up to that much more shows
    // with the larger object); holding whole objects, it is at least the extra bytes.
    goal: `≤ ${extraBytes / 2 / MiB}, half the extra bytes (holding whole objects: ≥ ${extraBytes / MiB})`,
    met: streaming.extraMiB * MiB <= extraBytes / 2,
  });
  for (const r of app) {
    const at = `GET /media/{file}, ${APP_VIDEO_BYTES / MiB} MiB video, ${r.adapter}${r.adapter === 's3' ? ' (302 + bucket)' : ' (streamed by the app)'}, ${APP_CLIENTS} clients`;
    figures.push(
      { name: `${at}: downloads/s`, value: r.reqPerSec, unit: 'req/s' },
      { name: `${at}: throughput`, value: r.MiBps, unit: 'MiB/s' },
    );
  }
  if (typeof instances !== 'string') {
    for (const r of instances) {
      const at = `${r.target} (postgres)`;
      figures.push(
        { name: `${at}: one instance`, value: r.one.reqPerSec, unit: 'req/s' },
        { name: `${at}: one instance p99`, value: r.one.p99, unit: 'ms' },
        { name: `${at}: two instances (sum)`, value: r.two.reqPerSec, unit: 'req/s' },
        { name: `${at}: two instances p99 (worse of the two)`, value: r.two.p99, unit: 'ms' },
        { name: `${at}: two instances ÷ one`, value: r.ratio, unit: '×' },
        {
          name: `${at}: non-2xx answers and errors, both runs`,
          value: r.one.non2xx + r.two.non2xx,
          unit: '',
          goal: '0',
          met: r.one.non2xx + r.two.non2xx === 0,
        },
      );
    }
  }
  return figures;
}

/**
 * Both media adapters (directly and through the app), then one instance versus two on
 * PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL; skipped, saying so, without one).
 */
export async function scaleOutBench(
  startProcess: StartProcess,
): Promise<{ figures: Figure[]; table: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-scale-'));
  const s3 = await startProcess('tests/bench/s3-server.ts', {});
  const s3Env = {
    S3_BUCKET: 'bench',
    S3_REGION: 'us-east-1',
    S3_ENDPOINT: `http://127.0.0.1:${s3.port}`,
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
  };
  try {
    const object = path.join(dir, 'object.bin');
    const video = path.join(dir, 'video.mp4');
    await randomFile(object, OBJECT_BYTES);
    await randomFile(video, APP_VIDEO_BYTES);
    const stores: StoreResult[] = [];
    const local = createLocalMediaStore(path.join(dir, 'data'));
    stores.push(await storeThroughput(local, object));
    let streaming: StreamingCheck;
    const bucket = s3Store(s3Env);
    try {
      stores.push(await storeThroughput(bucket, object));
      const big = path.join(dir, 'big.bin');
      await randomFile(big, BIG_FACTOR * OBJECT_BYTES);
      streaming = await streamingCheck(bucket, object, big);
      await rm(big);
    } finally {
      await bucket.close();
    }
    const app = [
      await appMediaThroughput(startProcess, 'local', {}, video),
      await appMediaThroughput(startProcess, 's3', s3Env, video),
    ];
    const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    let instances: InstancesRow[] | string;
    if (pgUrl) {
      const database = await createPostgresDatabase(pgUrl, 'bench_scale_');
      try {
        instances = await instancesThroughput(startProcess, database.url);
      } finally {
        await database.drop();
      }
    } else {
      instances =
        'Skipped: two instances need a shared PostgreSQL; set BENCH_DATABASE_URL or TEST_DATABASE_URL.';
      console.log(`scale: ${instances}`);
    }
    const results = { stores, streaming, app, instances };
    return { figures: figuresOf(results), table: scaleTable(results) };
  } finally {
    s3.child.kill('SIGTERM');
    await exited(s3.child);
    await rm(dir, { recursive: true, force: true });
  }
}
