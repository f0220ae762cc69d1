/**
 * Load and Crash: one `npm start` process on the embedded database (PGlite), the worker inside
 * it, as a local install runs. Invariants are read after a graceful stop, since PGlite allows one
 * process at a time.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/core/db.ts';
import { openPglite } from '../../server/core/db-pglite.ts';
import { acquireEmbeddedLock } from '../../server/core/embedded-lock.ts';
import { siteDirs } from '../../server/domains/site-build/release.ts';
import {
  articleSlugs,
  createClient,
  newUser,
  runUser,
  settleUnknownPayments,
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
import { freePort, sleep } from '../helpers/process.ts';
import { kill, startNode, stop, waitHealthy, type Proc } from './processes.ts';
import type { Profile } from './profiles.ts';
import { answerChecks, statsFields, type ScenarioResult } from './report.ts';

const ADMIN = { username: 'resilience', password: randomBytes(12).toString('hex') };

/** One data directory and port, kept across restarts (and from the Load run to the Crash run). */
export interface SingleSite {
  dataDir: string;
  port: number;
  base: string;
  proc: Proc | null;
  starts: number;
}

export async function createSite(dataDir: string): Promise<SingleSite> {
  const port = await freePort();
  return { dataDir, port, base: `http://127.0.0.1:${port}`, proc: null, starts: 0 };
}

/** Starts the server and waits for it to answer; returns the seconds it took. */
async function start(site: SingleSite): Promise<number> {
  site.starts += 1;
  site.proc = startNode(
    `server#${site.starts}`,
    'server/main.ts',
    {
      PORT: String(site.port),
      DATA_DIR: site.dataDir,
      // Request lines would be most of the log; warnings and errors are what we read.
      LOG_LEVEL: process.env.RESILIENCE_LOG_LEVEL ?? 'warn',
      VIDEO_WORKER: 'inline',
      // Most of the load's tasks fail on purpose after one status check (local polls every
      // 0.3 s), so the worker mostly waits: eight at a time drain them in seconds where two took
      // half a minute. Real renders stay few (the profile's budget), so ffmpeg never piles up.
      VIDEO_WORKER_CONCURRENCY: '8',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    path.join(site.dataDir, `server-${site.starts}.log`),
  );
  // The first start of a data directory builds the site (an astro build) after it listens.
  return (await waitHealthy(site.base, site.proc, 300_000)) / 1000;
}

/** The site releases built in this data directory so far. */
const releases = (site: SingleSite) =>
  readdir(siteDirs(site.dataDir).releases).catch(() => [] as string[]);

async function adminToken(base: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const body = (await res.json()) as { data?: { token?: string } };
  if (!body.data?.token) throw new Error(`admin sign-in failed: ${res.status}`);
  return body.data.token;
}

/** Waits (through the admin API) until no task is pending or processing. */
async function drain(site: SingleSite, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const token = await adminToken(site.base);
  while (Date.now() - started < timeoutMs) {
    // fresh=true: the overview's counts are otherwise a reading up to 30 s old (issue 19).
    const res = await fetch(`${site.base}/api/admin/overview?fresh=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { data: { tasks: { pending: number; processing: number } } };
    if (body.data.tasks.pending + body.data.tasks.processing === 0) break;
    await sleep(500);
  }
  return (Date.now() - started) / 1000;
}

/** Stops the server gracefully and runs `fn` on its database (then closes it). */
async function withStoppedDatabase<T>(site: SingleSite, fn: (db: Db) => Promise<T>): Promise<T> {
  if (site.proc) await stop(site.proc);
  site.proc = null;
  const lock = await acquireEmbeddedLock(site.dataDir, 'admin-cli');
  const database = await openPglite(path.join(site.dataDir, 'db'));
  try {
    return await fn(database.db);
  } finally {
    await database.close();
    await lock.release();
  }
}

function behaviour(stats: Stats, slugs: string[], profile: Profile): Behaviour {
  return {
    client: createClient(stats),
    slugs,
    renders: { left: profile.renders },
    until: Date.now() + profile.durationMs,
    thinkMs: profile.thinkMs,
  };
}

/** What every single-server scenario ends with: answers, ledgers, buyers' views, stored media. */
async function invariantChecks(
  db: Db,
  site: SingleSite,
  stats: Stats,
  users: SimUser[],
  exactMedia: boolean,
) {
  return [
    ...answerChecks(stats),
    ...(await ledgerChecks(db)),
    ...(await clientChecks(db, users)),
    ...(await mediaChecks(db, site.dataDir, exactMedia)),
  ];
}

/**
 * The end of a single-server scenario: waits for the queue to drain, stops the server and checks
 * the invariants, then the scenario's own check, on its database.
 */
async function finish(
  site: SingleSite,
  profile: Profile,
  run: { name: string; began: number; stats: Stats; users: SimUser[]; notes: string[] },
  exactMedia: boolean,
  ownCheck: (db: Db) => Promise<Check>,
): Promise<ScenarioResult> {
  const { stats, users, notes } = run;
  notes.push(
    `queue drained ${(await drain(site, profile.drainTimeoutMs)).toFixed(1)} s after the load`,
  );
  return withStoppedDatabase(site, async (db) => ({
    name: run.name,
    database: 'pglite',
    seconds: (Date.now() - run.began) / 1000,
    ...statsFields(stats),
    tasks: await taskCounts(db),
    notes,
    checks: [...(await invariantChecks(db, site, stats, users, exactMedia)), await ownCheck(db)],
  }));
}

/** Load: many users for a while; zero 5xx; every invariant holds once the queue drains. */
export async function runLoad(site: SingleSite, profile: Profile): Promise<ScenarioResult> {
  const began = Date.now();
  const notes: string[] = [];
  if (!site.proc?.running()) notes.push(`server ready in ${(await start(site)).toFixed(1)} s`);
  const stats = new Stats();
  const b = behaviour(stats, await articleSlugs(site.base), profile);
  const users = Array.from({ length: profile.users }, (_, i) => newUser(site.base, 'load', i));
  await Promise.all(users.map((u) => runUser(b, u)));
  return finish(site, profile, { name: 'Load', began, stats, users, notes }, true, async (db) =>
    check(
      'each task claimed once',
      await queryRows(db, sql`select id, attempts from video_tasks where attempts <> 1`),
      'one attempt per task',
    ),
  );
}

/**
 * Crash: the same load, with the server SIGKILLed mid-run and restarted on the same data
 * directory; payments whose answer was lost are retried; then the same invariants.
 */
export async function runCrash(site: SingleSite, profile: Profile): Promise<ScenarioResult> {
  const began = Date.now();
  const notes: string[] = [];
  // Restarts find the live release current: only a first start may build one.
  let releasesBefore = site.starts > 0 ? await releases(site) : null;
  if (!site.proc?.running()) notes.push(`server ready in ${(await start(site)).toFixed(1)} s`);
  releasesBefore ??= await releases(site);
  const stats = new Stats();
  const b = behaviour(stats, await articleSlugs(site.base), profile);
  const users = Array.from({ length: profile.users }, (_, i) => newUser(site.base, 'crash', i));
  const loadStarted = Date.now();
  const load = Promise.all(users.map((u) => runUser(b, u)));

  const crashes = (async () => {
    for (let k = 1; k <= profile.crashes; k++) {
      const at = loadStarted + (profile.durationMs * k) / (profile.crashes + 1);
      await sleep(Math.max(0, at - Date.now()));
      const outage = { from: Date.now(), to: Number.POSITIVE_INFINITY };
      stats.outages.push(outage);
      await kill(site.proc!);
      const downFor = await start(site);
      outage.to = Date.now();
      notes.push(`kill #${k}: SIGKILL, restarted and answering after ${downFor.toFixed(1)} s`);
    }
  })();
  await Promise.all([load, crashes]);
  await settleUnknownPayments(b, users);
  return finish(site, profile, { name: 'Crash', began, stats, users, notes }, false, async () =>
    check(
      'restarts reuse the live site release',
      (await releases(site)).filter((id) => !releasesBefore.includes(id)),
      `${site.starts} starts, no rebuild`,
    ),
  );
}
