/**
 * Two instances: two API processes (worker off) and two `npm run worker` processes on one fresh
 * PostgreSQL database and one shared DATA_DIR, with Stripe played by tests/fakes/stripe/.
 * Users are spread over both APIs; every webhook is delivered to both at once; both publish a
 * post at the same moment. Then: each task processed once, each webhook applied once, one site
 * build at a time, and the ledger invariants.
 */
import { randomBytes } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { queryRows } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { siteDirs } from '../../server/domains/site-build/release.ts';
import { startStripeFake, type SignedEvent } from '../fakes/stripe/index.ts';
import {
  act,
  articleSlugs,
  createClient,
  generate,
  newUser,
  signIn,
  Stats,
  type Behaviour,
  type SimUser,
} from './driver.ts';
import {
  check,
  clientChecks,
  ledgerChecks,
  mediaChecks,
  taskCounts,
  type Check,
} from './invariants.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import { freePort, sleep } from '../helpers/process.ts';
import {
  makeDataDir,
  ROOT,
  readLogLines,
  startNode,
  stop,
  waitHealthy,
  type LogLine,
  type Proc,
} from './processes.ts';
import type { Profile } from './profiles.ts';
import { answerChecks, resultWithoutTraffic, statsFields, type ScenarioResult } from './report.ts';

const EDITOR = 'editor@resilience.example';

/** The PostgreSQL server to create the run's database on (its superuser). */
export const postgresAdminUrl = () =>
  process.env.RESILIENCE_DATABASE_URL ??
  process.env.TEST_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/test';

/**
 * The skipped result of a PostgreSQL scenario when no server answers at postgresAdminUrl(), or
 * null when one does.
 */
export async function withoutPostgres(name: string): Promise<ScenarioResult | null> {
  const adminUrl = postgresAdminUrl();
  try {
    const probe = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
    await probe.connect();
    await probe.end();
    return null;
  } catch (error) {
    return resultWithoutTraffic(name, 'postgres', {
      skipped: `no PostgreSQL at ${adminUrl} (${(error as Error).message}); set RESILIENCE_DATABASE_URL`,
    });
  }
}

interface Interval {
  proc: string;
  release: string;
  from: number;
  to: number;
}

/** Site builds from the builders' log lines: started → live (or failed), per release id. */
function buildIntervals(proc: Proc, lines: LogLine[]): Interval[] {
  const open = new Map<string, number>();
  const intervals: Interval[] = [];
  for (const line of lines) {
    const release = typeof line.release === 'string' ? line.release : null;
    if (!release) continue;
    if (line.msg === 'site build started') open.set(release, line.time);
    const ended = ['site release live', 'site build failed', 'site build had nothing to change'];
    if (ended.includes(line.msg ?? '')) {
      intervals.push({
        proc: proc.name,
        release,
        from: open.get(release) ?? line.time,
        to: line.time,
      });
      open.delete(release);
    }
  }
  // A build still running when the log ends overlaps everything after it.
  for (const [release, from] of open)
    intervals.push({ proc: proc.name, release, from, to: Infinity });
  return intervals;
}

function overlaps(intervals: Interval[]): string[] {
  const sorted = [...intervals].sort((a, b) => a.from - b.from);
  const bad: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [prev, next] = [sorted[i - 1]!, sorted[i]!];
    if (next.from < prev.to) {
      bad.push(
        `${prev.proc} ${prev.release} and ${next.proc} ${next.release} overlap ${Math.min(prev.to, next.to) - next.from} ms`,
      );
    }
  }
  return bad;
}

/** Each task finished by exactly one worker, per the workers' own log lines. */
function workerChecks(
  workers: Array<{ proc: Proc; lines: LogLine[] }>,
  tasks: Array<{ id: string; status: string }>,
): Check[] {
  const done = new Map<string, string[]>();
  for (const { proc, lines } of workers) {
    for (const line of lines) {
      if (line.msg !== 'video task completed' && line.msg !== 'video task failed and refunded')
        continue;
      const id = String(line.taskId);
      done.set(id, [...(done.get(id) ?? []), `${proc.name}: ${line.msg}`]);
    }
  }
  const wrong = tasks
    .filter((t) => (done.get(t.id)?.length ?? 0) !== 1)
    .map((t) => ({ task: t.id, status: t.status, by: done.get(t.id) ?? [] }));
  const share = workers
    .map(
      ({ proc }) =>
        `${proc.name} ${[...done.values()].filter((d) => d[0]?.startsWith(`${proc.name}:`)).length}`,
    )
    .join(', ');
  return [
    check('each task finished by one worker, once', wrong, `${tasks.length} tasks (${share})`),
  ];
}

async function json<T>(res: { status: number; body: string } | null): Promise<T | null> {
  if (!res || res.status !== 200) return null;
  return JSON.parse(res.body) as T;
}

export async function runTwoInstances(profile: Profile): Promise<ScenarioResult> {
  const began = Date.now();
  const skipped = await withoutPostgres('Two instances');
  if (skipped) return skipped;
  const adminUrl = postgresAdminUrl();

  const database = await createPostgresDatabase(adminUrl, 'resilience_');
  const stripe = await startStripeFake();
  const dataDir = await makeDataDir('resilience-two-');
  const procs: Proc[] = [];
  const pool = openPostgres(database.url, 2);
  let keep = false;
  try {
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
      BLOG_EDITORS: EDITOR,
      // The builders' and workers' lines are what the checks read.
      LOG_LEVEL: 'info',
      VIDEO_WORKER_CONCURRENCY: '2',
    };
    const ports = [await freePort(), await freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    // All four at once: migrations, the first site build and the sample posts race for real.
    const apis = ports.map((port, i) =>
      startNode(
        `api-${'AB'[i]}`,
        'server/main.ts',
        { ...env, PORT: String(port), VIDEO_WORKER: 'off' },
        path.join(dataDir, `api-${'AB'[i]}.log`),
      ),
    );
    const workers = [1, 2].map((i) =>
      startNode(`worker-${i}`, 'server/worker.ts', env, path.join(dataDir, `worker-${i}.log`)),
    );
    procs.push(...apis, ...workers);
    const ready = await Promise.all(apis.map((p, i) => waitHealthy(bases[i]!, p, 300_000)));
    const notes = [`both APIs ready in ${(Math.max(...ready) / 1000).toFixed(1)} s`];

    const stats = new Stats();
    const client = createClient(stats);
    const t = profile.twoInstances;
    const b: Behaviour = {
      client,
      slugs: [],
      renders: { left: t.renders },
      until: Date.now(),
      thinkMs: profile.thinkMs,
      realShare: 1,
      canBuy: false,
    };
    const users: SimUser[] = Array.from({ length: t.users }, (_, i) =>
      newUser(bases[i % 2]!, 'two', i),
    );
    await Promise.all(users.map((u) => signIn(b, u, Date.now() + 30_000)));

    // Buy through Stripe: the same signed event goes to both instances, several copies at once,
    // while the buyer's success page asks both instances where the checkout stands.
    const deliveries: Array<{ event: string; status: number | null; duplicate: unknown }> = [];
    const deliver = async (base: string, signed: SignedEvent) => {
      const res = await client.request(
        base,
        'POST /api/stripe/webhook',
        '/api/stripe/webhook',
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'stripe-signature': signed.header,
          },
          body: signed.payload,
        },
        [200],
      );
      const body = await json<{ duplicate?: boolean }>(res);
      deliveries.push({
        event: signed.event.id,
        status: res?.status ?? null,
        duplicate: body?.duplicate,
      });
    };
    const events: string[] = [];
    await Promise.all(
      users.map(async (u) => {
        const created = await json<{ sessionId: string }>(
          await client.request(
            u.base,
            'POST /api/stripe/create-payment-intent',
            '/api/stripe/create-payment-intent',
            {
              method: 'POST',
              headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
              body: JSON.stringify({
                type: 'credits',
                package_id: 'starter',
                success_url: '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
                cancel_url: '/pricing?payment=cancelled',
              }),
            },
            [200],
          ),
        );
        if (!created) return;
        for (const signed of stripe.completeCheckout(created.sessionId, { email: u.email })) {
          events.push(signed.event.id);
          await Promise.all([
            ...bases.flatMap((base) =>
              Array.from({ length: t.webhookCopies }, () => deliver(base, signed)),
            ),
            ...bases.map((base) =>
              client.request(
                base,
                'GET /api/stripe/checkout/{id}',
                `/api/stripe/checkout/${created.sessionId}`,
                { headers: { authorization: `Bearer ${u.token}` } },
                [200],
              ),
            ),
          ]);
        }
        u.paid.add(created.sessionId);
        u.credits += 330;
      }),
    );

    // Videos, alternating between the APIs; both workers take them from the one queue.
    await Promise.all(
      users.map(async (u, i) => {
        for (let j = 0; j < t.tasksPerUser; j++) {
          u.base = bases[(i + j) % 2]!;
          await generate(b, u);
        }
      }),
    );

    // Then the Load scenario's mix (balance, history, status, blog reads, more videos), each
    // user on their own API, while both workers share the queue.
    b.slugs = await articleSlugs(bases[0]!);
    b.until = Date.now() + t.loadMs;
    await Promise.all(
      users.map((u, i) => {
        u.base = bases[i % 2]!;
        return act(b, u);
      }),
    );

    // Both instances publish: B two seconds after A, so B's build is due while A's runs (they
    // must take turns) and A's release lacks B's post (A must then serve B's newer release).
    const editor = newUser(bases[0]!, 'editor', 0);
    editor.email = EDITOR;
    await signIn(b, editor, Date.now() + 30_000);
    const publishedAt = Date.now();
    const posts = await Promise.all(
      bases.map(async (base, i) => {
        await sleep(i * 2000);
        const title = `Two instances, one site ${'AB'[i]} ${randomBytes(3).toString('hex')}`;
        const res = await client.request(
          base,
          'POST /api/blog/admin/posts',
          '/api/blog/admin/posts',
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${editor.token}`,
              'content-type': 'application/json',
            },
            body: JSON.stringify({
              title,
              content: `<p>${title} went live on both instances.</p>`,
              status: 'published',
              tags: ['resilience'],
            }),
          },
          [200],
        );
        const slug = (await json<{ data: { slug: string } }>(res))?.data.slug;
        return slug ? { slug, title } : null;
      }),
    );
    const buildWait = Date.now();
    for (;;) {
      const states = await Promise.all(
        bases.map(async (base) =>
          json<{ data: { state: string; finishedAt: string | null } }>(
            await client.request(
              base,
              'GET /api/blog/admin/build-status',
              '/api/blog/admin/build-status',
              { headers: { authorization: `Bearer ${editor.token}` } },
              [200],
            ),
          ),
        ),
      );
      const settled = states.every(
        (s) =>
          s?.data.state === 'live' &&
          s.data.finishedAt &&
          Date.parse(s.data.finishedAt) > publishedAt,
      );
      if (settled || Date.now() - buildWait > 240_000) break;
      await sleep(500);
    }
    notes.push(
      `both publishes live ${((Date.now() - buildWait) / 1000).toFixed(1)} s after saving`,
    );
    // Each instance must serve the release that is live now, whoever built it: both articles
    // pre-rendered (not the article shell) and both on the blog index, from either API.
    await sleep(1500);
    const stale: string[] = [];
    for (const base of bases) {
      const index = await client.request(base, 'GET /blog', '/blog', {}, [200]);
      for (const post of posts) {
        if (!post) continue;
        if (!index?.body.includes(post.title)) stale.push(`${base}/blog lacks ${post.slug}`);
        const page = await client.request(
          base,
          'GET /blog/{slug}',
          `/blog/${post.slug}`,
          {},
          [200],
        );
        if (!page?.body.includes(`${post.title} went live`))
          stale.push(`${base}/blog/${post.slug} is not the built page`);
      }
    }

    const db = pool.db;
    const drainStarted = Date.now();
    while (Date.now() - drainStarted < profile.drainTimeoutMs) {
      const counts = await taskCounts(db);
      if (counts.pending! + counts.processing! === 0) break;
      await sleep(500);
    }
    notes.push(
      `queue drained ${((Date.now() - drainStarted) / 1000).toFixed(1)} s after the publishes`,
    );
    const died = await Promise.all(
      procs.filter((p) => !p.running()).map(async (p) => `${p.name} ${await p.exited}`),
    );
    await Promise.all(procs.map((p) => stop(p)));

    const builds = (
      await Promise.all(apis.map(async (p) => buildIntervals(p, await readLogLines(p))))
    ).flat();
    notes.push(
      `site builds: ${builds.map((x) => `${x.proc} ${((x.to - x.from) / 1000).toFixed(1)} s`).join(', ') || 'none'}`,
    );
    const manifest = JSON.parse(
      await readFile(path.join(siteDirs(dataDir).current, 'release.json'), 'utf8'),
    ) as { files: string[] };
    const tasks = await queryRows<{ id: string; status: string; attempts: number }>(
      db,
      sql`select id, status, attempts from video_tasks`,
    );
    const perEvent = new Map<string, typeof deliveries>();
    for (const d of deliveries) perEvent.set(d.event, [...(perEvent.get(d.event) ?? []), d]);
    const stored = await queryRows<{ id: string }>(db, sql`select id from webhook_events`);
    const seeds = (await readdir(path.join(ROOT, 'content', 'blog-seed'))).filter((f) =>
      f.endsWith('.json'),
    ).length;
    const samplePosts = await queryRows<{ slug: string }>(
      db,
      sql`select slug from posts where author_id is null`,
    );

    const checks: Check[] = [
      check('every process stayed up', died, '2 APIs and 2 workers'),
      ...answerChecks(stats),
      ...(await ledgerChecks(db)),
      ...(await clientChecks(db, users)),
      ...(await mediaChecks(db, dataDir, true)),
      check(
        'each task claimed once',
        tasks.filter((x) => x.attempts !== 1),
        `${tasks.length} tasks, one attempt each`,
      ),
      ...workerChecks(
        await Promise.all(workers.map(async (proc) => ({ proc, lines: await readLogLines(proc) }))),
        tasks,
      ),
      check(
        'each webhook applied once',
        [...perEvent].filter(
          ([id, ds]) =>
            ds.filter((d) => d.duplicate === false).length !== 1 ||
            ds.some((d) => d.status !== 200) ||
            !stored.some((s) => s.id === id),
        ),
        `${events.length} events × ${t.webhookCopies * 2} deliveries: one applied, the rest duplicates`,
      ),
      check(
        'sample articles added once',
        samplePosts.length === seeds ? [] : samplePosts.map((p) => p.slug),
        `${seeds} sample articles`,
      ),
      check(
        'one site build at a time',
        overlaps(builds),
        `${builds.length} builds, none overlapping`,
      ),
      check(
        'the live release has both posts',
        posts.filter((p) => !p || !manifest.files.includes(`blog/${p.slug}.html`)),
        'both published pages in the live release',
      ),
      check(
        'both instances serve the live release',
        stale,
        'both articles and the index, from A and B',
      ),
    ];
    keep = checks.some((c) => !c.ok);
    if (keep) notes.push(`logs kept in ${dataDir}`);
    return {
      name: 'Two instances',
      database: 'postgres',
      seconds: (Date.now() - began) / 1000,
      ...statsFields(stats),
      tasks: await taskCounts(db),
      notes,
      checks,
    };
  } catch (error) {
    keep = true;
    throw new Error(`${(error as Error).message}\n(logs kept in ${dataDir})`, { cause: error });
  } finally {
    await Promise.all(procs.map((p) => stop(p)));
    await pool.close();
    await database.drop();
    await stripe.close();
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  }
}
