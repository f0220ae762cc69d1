/**
 * Several machines (issue 18): two API instances (A and B) serving the site, a third API-only
 * instance (C) and a separate `npm run worker`, each with its own DATA_DIR (as on separate
 * disks), sharing one PostgreSQL database and one S3 bucket (s3rver), with text-mode videos
 * routed to the fal fake so a job outlives the worker that submitted it. Then:
 * - an image-mode video submitted to A is rendered by the worker (which reads the upload from
 *   the bucket) and played, with seeking, from B;
 * - the worker is killed while a job is running at the provider; a second worker finishes it
 *   without submitting it again;
 * - a post published on A is live from B and in the bucket's live release;
 * - one rate-limit budget holds across A and B;
 * - the hourly job ran once across A, B and C;
 * - the ledger invariants.
 */
import { randomBytes } from 'node:crypto';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { queryRows } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { createS3MediaStore } from '../../server/core/media-store/s3.ts';
import { startFalFake } from '../fakes/fal/index.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import { freePort, sleep } from '../helpers/process.ts';
import { startS3Server } from '../helpers/s3.ts';
import { buy, createClient, newUser, scriptedBehaviour, signIn, Stats } from './driver.ts';
import { check, ledgerChecks, type Check } from './invariants.ts';
import {
  kill,
  logTail,
  makeDataDir,
  readLogLines,
  startNode,
  stop,
  waitHealthy,
  type Proc,
} from './processes.ts';
import { answerChecks, statsFields, type ScenarioResult } from './report.ts';
import { postgresAdminUrl, withoutPostgres } from './two-instances.ts';

const EDITOR = 'editor@machines.example';
/** Reset requests allowed per minute per address, on every instance together. */
const RESET_BUDGET = 8;

type Json = Record<string, unknown>;
const parse = (body: string | undefined): Json => {
  try {
    return JSON.parse(body ?? '{}') as Json;
  } catch {
    return {};
  }
};

/** Waits until `probe` answers a value, or throws with `what` after `timeoutMs`. */
async function waitFor<T>(
  what: string,
  probe: () => Promise<T | null | undefined>,
  timeoutMs: number,
  everyMs = 300,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const value = await probe().catch(() => null);
    if (value !== null && value !== undefined) return value;
    await sleep(everyMs);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
}

/** Waits until GET base/api/health/ready answers 200 (an API-only instance has no site). */
async function waitReady(base: string, proc: Proc, timeoutMs: number): Promise<void> {
  await waitFor(
    `${proc.name} to be ready`,
    async () => {
      if (!proc.running()) throw new Error(`${proc.name} exited:\n${await logTail(proc)}`);
      const res = await fetch(`${base}/api/health/ready`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      return res.ok ? true : null;
    },
    timeoutMs,
  );
}

export async function runSeveralMachines(): Promise<ScenarioResult> {
  const began = Date.now();
  const skipped = await withoutPostgres('Several machines');
  if (skipped) return skipped;
  const adminUrl = postgresAdminUrl();

  const database = await createPostgresDatabase(adminUrl, 'resilience_mm_');
  const s3 = await startS3Server();
  // Each status check of a fal job is one poll; 25 polls at 400 ms: the job runs ~10 s.
  const fal = await startFalFake({ pollsUntilDone: 25 });
  const logDir = await makeDataDir('resilience-machines-');
  const dirs: string[] = [];
  const procs: Proc[] = [];
  const pool = openPostgres(database.url, 2);
  const bucket = createS3MediaStore({
    bucket: s3.bucket,
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    publicUrl: null,
    urlTtlSeconds: 900,
  });
  let keep = false;
  /** A process with a DATA_DIR of its own, as on its own machine. */
  const machine = async (name: string, script: string, env: Record<string, string>) => {
    const dataDir = await makeDataDir(`machine-${name}-`);
    dirs.push(dataDir);
    const proc = startNode(
      name,
      script,
      { ...shared, ...env, DATA_DIR: dataDir },
      path.join(logDir, `${name}.log`),
    );
    procs.push(proc);
    return proc;
  };
  const shared: Record<string, string> = {
    DATABASE_URL: database.url,
    ...s3.env,
    ...fal.env,
    SITE_PUBLISH: 's3',
    BLOG_EDITORS: EDITOR,
    LOG_LEVEL: 'info',
    AUTH_RATE_LIMIT_PER_MINUTE: String(RESET_BUDGET),
    VIDEO_ROUTE_TEXT: `fal:${fal.models.text}`,
    VIDEO_ROUTE_IMAGE: 'local:local',
    VIDEO_POLL_MS: '400',
    VIDEO_LEASE_SECONDS: '4',
    VIDEO_WORKER_CONCURRENCY: '2',
  };
  try {
    const [portA, portB, portC] = [await freePort(), await freePort(), await freePort()];
    const [A, B, C] = [portA, portB, portC].map((p) => `http://127.0.0.1:${p}`) as [
      string,
      string,
      string,
    ];
    const notes: string[] = [];
    // A first: it builds the first release and publishes it to the bucket; B then syncs it.
    // debug: the scheduler's 'scheduled job ran' lines are what the hourly check reads.
    const apiA = await machine('api-A', 'server/main.ts', {
      LOG_LEVEL: 'debug',
      PORT: String(portA),
      VIDEO_WORKER: 'off',
    });
    notes.push(
      `A built and published in ${((await waitHealthy(A, apiA, 300_000)) / 1000).toFixed(1)} s`,
    );
    const apiB = await machine('api-B', 'server/main.ts', {
      LOG_LEVEL: 'debug',
      PORT: String(portB),
      VIDEO_WORKER: 'off',
    });
    const apiC = await machine('api-C', 'server/main.ts', {
      LOG_LEVEL: 'debug',
      PORT: String(portC),
      VIDEO_WORKER: 'off',
      SERVE_SITE: 'false',
    });
    const worker1 = await machine('worker-1', 'server/worker.ts', {});
    notes.push(
      `B serving the site in ${((await waitHealthy(B, apiB, 300_000)) / 1000).toFixed(1)} s`,
    );
    await waitReady(C, apiC, 120_000);

    const stats = new Stats();
    const client = createClient(stats);
    const b = scriptedBehaviour(client);

    // One rate-limit budget across A and B: RESET_BUDGET requests in all, then 429 on both.
    const resets: number[] = [];
    for (let i = 0; i < RESET_BUDGET + 2; i++) {
      const base = i % 2 === 0 ? A : B;
      const res = await client.request(
        base,
        'POST /api/auth/reset-password',
        '/api/auth/reset-password',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: `nobody-${i}@machines.example` }),
        },
        i < RESET_BUDGET ? [200] : [429],
      );
      resets.push(res?.status ?? 0);
    }

    // A buyer on A: credits through the local checkout.
    const user = newUser(A, 'machines', 0);
    await signIn(b, user, Date.now() + 30_000);
    await buy(b, user, true);
    const auth = { authorization: `Bearer ${user.token ?? ''}` };

    // An image-mode video submitted to A, rendered by the worker from the bucket's copy.
    const form = new FormData();
    form.set('prompt', 'A paper boat drifting across a calm lake at dawn');
    form.set('model', 'veo3-fast-frames');
    const png = await sharp({
      create: { width: 640, height: 360, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .png()
      .toBuffer();
    form.set('image', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'frame.png');
    const submitted = await client.request(
      A,
      'POST /api/video/generate',
      '/api/video/generate',
      { method: 'POST', headers: auth, body: form },
      [200],
    );
    const imageTask = String((parse(submitted?.body).data as Json | undefined)?.taskId ?? '');
    const statusOn = async (base: string, taskId: string) => {
      const res = await client.request(
        base,
        'GET /api/video/status/{id}',
        `/api/video/status/${taskId}`,
        { headers: auth },
        [200],
      );
      return (parse(res?.body).data ?? {}) as Json;
    };
    const finished = (base: string, taskId: string) =>
      waitFor(
        `task ${taskId} to finish`,
        async () => {
          const data = await statusOn(base, taskId);
          return data.status === 'completed' || data.status === 'failed' ? data : null;
        },
        120_000,
        500,
      );
    const imageDone = await finished(B, imageTask);
    const played = await playFrom(B, String(imageDone.result_url ?? ''));

    // A text-mode video at the provider; the worker that submitted it dies mid-job.
    const killPrompt = `A lighthouse beam sweeping through fog ${randomBytes(3).toString('hex')}`;
    const textForm = new FormData();
    textForm.set('prompt', killPrompt);
    textForm.set('model', 'veo3');
    const textRes = await client.request(
      A,
      'POST /api/video/generate',
      '/api/video/generate',
      { method: 'POST', headers: auth, body: textForm },
      [200],
    );
    const textTask = String((parse(textRes?.body).data as Json | undefined)?.taskId ?? '');
    await waitFor(
      'the fal job to be running',
      async () => ((fal.jobs.find((j) => j.prompt === killPrompt)?.polls ?? 0) >= 2 ? true : null),
      60_000,
      100,
    );
    await kill(worker1);
    const worker2 = await machine('worker-2', 'server/worker.ts', {});
    const textDone = await finished(B, textTask);
    const textPlayed = await playFrom(A, String(textDone.result_url ?? ''));
    const submits = fal.jobs.filter((j) => j.prompt === killPrompt).length;
    const worker2Lines = await readLogLines(worker2);

    // A post published on A: live from B and in the bucket's live release.
    const editor = newUser(A, 'editor', 0);
    editor.email = EDITOR;
    await signIn(b, editor, Date.now() + 30_000);
    const livePointer = async () => {
      const read = await bucket.get('releases/live.json');
      return read ? (JSON.parse(await text(read.body)) as { id: string }).id : null;
    };
    const before = await livePointer();
    const title = `Published on A, read on B ${randomBytes(3).toString('hex')}`;
    const created = await client.request(
      A,
      'POST /api/blog/admin/posts',
      '/api/blog/admin/posts',
      {
        method: 'POST',
        headers: {
          authorization: `Bearer ${editor.token ?? ''}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          title,
          content: `<p>${title}: one release for every machine.</p>`,
          status: 'published',
          tags: ['machines'],
        }),
      },
      [200],
    );
    const slug = String((parse(created?.body).data as Json | undefined)?.slug ?? '');
    const publishStarted = Date.now();
    const release = await waitFor(
      'a new live release in the bucket',
      async () => {
        const id = await livePointer();
        return id && id !== before ? id : null;
      },
      240_000,
      500,
    );
    const inBucket = await bucket.get(`releases/${release}/blog/${slug}.html`);
    const bucketPage = inBucket ? await text(inBucket.body) : '';
    const fromB = await waitFor(
      `B to serve /blog/${slug}`,
      async () => {
        const res = await fetch(`${B}/blog/${slug}`);
        const body = await res.text();
        return res.ok && body.includes('one release for every machine') ? body : null;
      },
      60_000,
      500,
    );
    notes.push(
      `post live on B ${((Date.now() - publishStarted) / 1000).toFixed(1)} s after saving`,
    );

    // The hourly jobs: one run per tick across A, B and C.
    const apis = [apiA, apiB, apiC];
    const runs = await queryRows<{ name: string; tick: string }>(
      pool.db,
      sql`select name, tick::text as tick from scheduled_job_runs`,
    );
    const jobLines = (
      await Promise.all(apis.map(async (p) => ({ p, lines: await readLogLines(p) })))
    ).flatMap(({ p, lines }) =>
      lines
        .filter((l) => l.msg === 'scheduled job ran' && l.job === 'billing.scheduled-grants')
        .map((l) => `${p.name} tick ${String(l.tick)}`),
    );
    const perTick = new Map<string, string[]>();
    for (const line of jobLines) {
      const tick = line.split(' tick ')[1]!;
      perTick.set(tick, [...(perTick.get(tick) ?? []), line]);
    }

    const died = await Promise.all(
      procs
        .filter((p) => p !== worker1 && !p.running())
        .map(async (p) => `${p.name} ${await p.exited}`),
    );
    await Promise.all(procs.map((p) => stop(p)));
    const localMedia = (
      await Promise.all(
        dirs.map(async (d) =>
          (await readdir(path.join(d, 'media')).catch(() => [] as string[])).map(
            (f) => `${d}: ${f}`,
          ),
        ),
      )
    ).flat();

    const checks: Check[] = [
      check('every process stayed up (but the killed worker)', died, '3 APIs and 2 workers'),
      ...answerChecks(stats),
      ...(await ledgerChecks(pool.db)),
      check(
        'one rate-limit budget across A and B',
        resets.every((s, i) => (i < RESET_BUDGET ? s === 200 : s === 429))
          ? []
          : [resets.join(',')],
        `${RESET_BUDGET} allowed in all, then 429 from both`,
      ),
      check(
        'an image-mode video from A is rendered by the worker and plays from B',
        imageDone.status === 'completed' ? played : [`task ${String(imageDone.status)}`],
        'played and seeked through B (redirect to the bucket)',
      ),
      check(
        'a job outlives its killed worker: a second worker finishes it',
        [
          ...(textDone.status === 'completed' ? [] : [`task ${String(textDone.status)}`]),
          ...(submits === 1 ? [] : [`${submits} submits to fal`]),
          ...(worker2Lines.some((l) => l.msg === 'video task completed' && l.taskId === textTask)
            ? []
            : ['worker-2 did not complete it']),
          ...textPlayed,
        ],
        'one submit, completed by worker-2, plays from A',
      ),
      check(
        'no result on any machine’s disk',
        localMedia,
        'results and posters only in the bucket',
      ),
      check(
        'a post published on A is live from B and in the bucket',
        [
          ...(fromB.includes(title) ? [] : ['B lacks the title']),
          ...(bucketPage.includes(title) ? [] : [`releases/${release}/blog/${slug}.html lacks it`]),
        ],
        `release ${release}`,
      ),
      check(
        'the hourly job ran once per tick across three instances',
        [...perTick].filter(([, lines]) => lines.length !== 1).map(([, l]) => l.join('; ')),
        `${jobLines.length} run(s), ${runs.length} job(s) recorded`,
      ),
    ];
    keep = checks.some((c) => !c.ok);
    if (keep) notes.push(`logs kept in ${logDir}`);
    return {
      name: 'Several machines',
      database: 'postgres',
      seconds: (Date.now() - began) / 1000,
      ...statsFields(stats),
      tasks: {},
      notes,
      checks,
    };
  } catch (error) {
    keep = true;
    throw new Error(`${(error as Error).message}\n(logs kept in ${logDir})`, { cause: error });
  } finally {
    await Promise.all(procs.map((p) => stop(p)));
    await bucket.close();
    await pool.close();
    await database.drop();
    await fal.close();
    await s3.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
    if (!keep) await rm(logDir, { recursive: true, force: true });
  }
}

/**
 * Plays a result as a browser does: the instance's /media address redirects to the bucket,
 * where the whole video and a seek (range request) answer. Returns the problems found.
 */
async function playFrom(base: string, resultUrl: string): Promise<string[]> {
  if (!resultUrl.startsWith('/media/')) return [`no result URL (${resultUrl})`];
  const redirect = await fetch(`${base}${resultUrl}`, { redirect: 'manual' });
  const location = redirect.headers.get('location');
  if (redirect.status !== 302 || !location) return [`${resultUrl} answered ${redirect.status}`];
  const whole = await fetch(location);
  const bytes = Buffer.from(await whole.arrayBuffer());
  const problems: string[] = [];
  if (whole.status !== 200 || bytes.length < 10_000) {
    problems.push(`video ${whole.status}, ${bytes.length} bytes`);
  }
  if (bytes.subarray(4, 8).toString('latin1') !== 'ftyp') problems.push('not an MP4');
  const seek = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
  const part = Buffer.from(await seek.arrayBuffer());
  if (seek.status !== 206 || !part.equals(bytes.subarray(1000, 2000))) {
    problems.push(`seek answered ${seek.status} with ${part.length} bytes`);
  }
  return problems;
}
