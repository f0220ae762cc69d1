/**
 * `npm run bench` section `data` (issue 19, item 6): list latency at data scale.
 *
 * On PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), two fresh databases in one run: one
 * near-empty and one seeded (data-scale-seed.ts) to the small size by default (10k users, 200k
 * ledger rows, 50k tasks, 1k posts, a heavy user with 5k ledger rows and 2k tasks) or, with
 * BENCH_DATA=full, the issue's (100k users, 2M ledger rows, 500k tasks, 10k posts, 50k / 20k).
 * On each, `server/main.ts` (API only, no worker) answers every list endpoint 200 times, 10 at a
 * time (data-scale-endpoints.ts), the two servers taking turns so both see the same machine; the
 * section reports p50/p95 per endpoint at both sizes and the p95 ratio large ÷ near-empty, whose
 * goal is ≤ 2: a list that stays flat as data grows.
 *
 * Part `publish` (publish-scale.ts, issue 19 item 5): publish- and edit-to-live, astro build peak
 * RSS, server RSS across 20 publishes, releases on disk and a restart with a changed blog, with
 * the real server and `astro build` on 1,000 seeded posts (and 10,000 with BENCH_DATA=full).
 * BENCH_DATA_PARTS=endpoints,publish picks the parts (both by default).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { HISTORY_PAGE_SIZE } from '../../shared/video.ts';
import type { Figure } from '../helpers/measure.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import {
  prepareEndpoints,
  type DeepTargets,
  type PreparedEndpoints,
} from './data-scale-endpoints.ts';
import { adminSignIn, localSignIn, timeInterleaved, type Timing } from './data-scale-http.ts';
import {
  HEAVY_EMAIL,
  HEAVY_NAME,
  heavyHistoryRows,
  ledgerMismatches,
  seedDatabase,
  SIZES,
  type DataSize,
  type SeedResult,
} from './data-scale-seed.ts';
import { publishScaleBench } from './publish-scale.ts';

type StartProcess = (
  script: string,
  env: Record<string, string>,
) => Promise<{ child: ChildProcess; port: number }>;

const GOAL_RATIO = 2;
const ADMIN = { username: 'bench-admin', password: 'bench-admin-password-19' };
/** The deep pages sit this far into the heavy user's lists (offset 40,000 of 50,000 at full). */
const DEEP_SHARE = 0.8;

const PARTS = ['endpoints', 'publish'] as const;

/** BENCH_DATA_PARTS picks the parts of the section: endpoints, publish (both by default). */
function wantedParts(): Set<string> {
  const wanted = (process.env.BENCH_DATA_PARTS || PARTS.join(',')).split(',');
  const unknown = wanted.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) {
    throw new Error(`BENCH_DATA_PARTS takes ${PARTS.join(', ')}; not '${unknown.join(',')}'.`);
  }
  return new Set(wanted);
}

/** BENCH_DATA picks the large size: small (default) or full. */
function largeSize(): DataSize {
  const wanted = process.env.BENCH_DATA || 'small';
  if (wanted === 'small' || wanted === 'full') return SIZES[wanted];
  throw new Error(`BENCH_DATA must be 'small' (the default) or 'full', not '${wanted}'.`);
}

/** The deep pages of the large size; asked for at both sizes so the rows compare. */
function deepTargets(size: DataSize): DeepTargets {
  const historyRows = Math.floor(DEEP_SHARE * heavyHistoryRows(size));
  return {
    ledgerOffset: Math.round(DEEP_SHARE * size.heavyLedgerRows),
    historyPage: Math.floor(historyRows / HISTORY_PAGE_SIZE) + 1,
    // Matches bench-user-000424 only (none in the near-empty database), while every trigram of
    // 'user-' is in every seeded email: the search asks the index for its rare part.
    searchQuery: 'user-000424',
    // Matches every seeded email: the list walks users newest first.
    broadSearchQuery: 'bench.example',
  };
}

/** One size, set up: its database seeded, its server running, its endpoints ready to ask. */
interface SizeSetUp {
  size: DataSize;
  seed: SeedResult;
  prepared: PreparedEndpoints;
  close(): Promise<void>;
}

/** A size with its figures: per endpoint, its timing, or why it has none. */
interface SizeRun {
  size: DataSize;
  seed: SeedResult;
  walks: PreparedEndpoints['walks'];
  endpoints: Map<string, Measured>;
}

type Measured =
  { kind: 'timed'; timing: Timing; note?: string } | { kind: 'skipped'; note: string };

/** A fresh database seeded to `size` and the server on it; `close` stops and drops both. */
async function setUpSize(
  startProcess: StartProcess,
  adminUrl: string,
  size: DataSize,
  targets: DeepTargets,
): Promise<SizeSetUp> {
  const database = await createPostgresDatabase(adminUrl, 'bench_data_');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-data-'));
  let child: ChildProcess | null = null;
  const close = async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const migrations = openPostgres(database.url, 2);
    try {
      await migrations.migrate();
    } finally {
      await migrations.close();
    }
    const seed = await seedDatabase(database.url, size);
    console.log(
      `data: seeded ${size.label} in ${seed.seedSeconds.toFixed(1)} s (+ VACUUM ANALYZE and CHECKPOINT ${seed.analyzeSeconds.toFixed(1)} s): ${JSON.stringify(seed.counts)}`,
    );
    const broken = await ledgerMismatches(database.url);
    if (broken > 0) {
      throw new Error(
        `The seeded ledger breaks the credits invariant for ${broken} users (data-scale-seed.ts).`,
      );
    }
    const started = await startProcess('server/main.ts', {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      SERVE_SITE: 'false',
      VIDEO_WORKER: 'off',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_PASSWORD_HASH: '',
    });
    child = started.child;
    const base = `http://127.0.0.1:${started.port}`;
    const server = {
      base,
      adminToken: await adminSignIn(base, ADMIN.username, ADMIN.password),
      heavy: await localSignIn(base, HEAVY_NAME, HEAVY_EMAIL),
    };
    return { size, seed, prepared: await prepareEndpoints(server, targets), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Times each endpoint on both servers, taking turns (data-scale-http.ts timeInterleaved). */
async function measureBoth(empty: SizeSetUp, large: SizeSetUp): Promise<[SizeRun, SizeRun]> {
  const runs = [empty, large].map((s): SizeRun => ({
    size: s.size,
    seed: s.seed,
    walks: s.prepared.walks,
    endpoints: new Map(),
  })) as [SizeRun, SizeRun];
  for (const name of large.prepared.endpoints.keys()) {
    const sides = [empty, large].map((s) => s.prepared.endpoints.get(name));
    const ready = sides.flatMap((p) => (p?.kind === 'ready' ? [p.target] : []));
    const timings = await timeInterleaved(ready);
    sides.forEach((p, i) => {
      const measured: Measured =
        p?.kind === 'ready'
          ? { kind: 'timed', timing: timings.shift()!, ...(p.note ? { note: p.note } : {}) }
          : { kind: 'skipped', note: p?.note ?? 'not asked at this size' };
      runs[i]!.endpoints.set(name, measured);
    });
  }
  return runs;
}

const ms = (m: Measured | undefined) =>
  m?.kind === 'timed' ? `${m.timing.p50} / ${m.timing.p95}` : '–';

/** Non-2xx answers of a timed row, e.g. `400 ×200`. */
function refusals(m: Measured | undefined): string {
  if (m?.kind !== 'timed') return '';
  return Object.entries(m.timing.statuses)
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, n]) => `${status} ×${n}`)
    .join(', ');
}

/** The p95 ratio large ÷ near-empty, when both sides were answered with 2xx only. */
function ratioOf(empty: Measured | undefined, large: Measured | undefined): number | null {
  if (empty?.kind !== 'timed' || large?.kind !== 'timed') return null;
  if (refusals(empty) || refusals(large)) return null;
  return +(large.timing.p95 / Math.max(empty.timing.p95, 0.1)).toFixed(2);
}

/** What a row's figures need to be read right: skips, refusals, cursor walks (per size). */
function notesOf(empty: SizeRun, large: SizeRun, name: string): string {
  const perSize: string[] = [];
  const refusalTexts = new Set<string>();
  for (const run of [empty, large]) {
    const m = run.endpoints.get(name);
    const notes: string[] = [];
    if (m?.kind === 'skipped' || (m?.kind === 'timed' && m.note)) notes.push(m.note!);
    const refused = refusals(m);
    if (refused && m?.kind === 'timed') {
      notes.push(`answered ${refused}`);
      if (m.timing.firstError) refusalTexts.add(m.timing.firstError);
    }
    const walk = run.walks.get(name);
    if (walk?.supported) {
      notes.push(
        `cursor walk to row ${walk.depth}: ${walk.requests} pages in ${(walk.ms / 1000).toFixed(2)} s`,
      );
    }
    if (notes.length > 0) perSize.push(`${run.size.label}: ${notes.join(', ')}`);
  }
  const said = [...refusalTexts].map((text) => `“${text.slice(0, 200)}”`);
  return [...perSize, ...said].join(' · ').replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function tableOf(empty: SizeRun, large: SizeRun, names: string[]): string {
  const seedLine = (run: SizeRun) =>
    `${run.size.label}: ${Object.entries(run.seed.counts)
      .map(([table, n]) => `${n.toLocaleString('en-US')} ${table}`)
      .join(
        ', ',
      )}; seeded in ${run.seed.seedSeconds.toFixed(1)} s, VACUUM ANALYZE and CHECKPOINT ${run.seed.analyzeSeconds.toFixed(1)} s`;
  return [
    `Data scale on PostgreSQL: 200 requests per endpoint and size, 10 at a time, after 20 uncounted, the two sizes taking turns in 4 slices; heavy user ${large.size.heavyLedgerRows.toLocaleString('en-US')} ledger rows, ${large.size.heavyTasks.toLocaleString('en-US')} tasks at the large size.`,
    `- ${seedLine(empty)}`,
    `- ${seedLine(large)}`,
    '',
    `| endpoint | ${empty.size.label} p50 / p95 ms | ${large.size.label} p50 / p95 ms | p95 ratio | goal ≤ ${GOAL_RATIO} | notes |`,
    '|---|---:|---:|---:|---|---|',
    ...names.map((name) => {
      const e = empty.endpoints.get(name);
      const l = large.endpoints.get(name);
      const ratio = ratioOf(e, l);
      const goal = ratio === null ? 'n/a' : ratio <= GOAL_RATIO ? '✓' : '✗';
      return `| ${name} | ${ms(e)} | ${ms(l)} | ${ratio ?? '–'} | ${goal} | ${notesOf(empty, large, name)} |`;
    }),
  ].join('\n');
}

function figuresOf(empty: SizeRun, large: SizeRun, names: string[]): Figure[] {
  const figures: Figure[] = [];
  for (const run of [empty, large]) {
    figures.push(
      {
        name: `data: seed ${run.size.label} (${Object.values(run.seed.counts)
          .reduce((a, b) => a + b, 0)
          .toLocaleString('en-US')} rows)`,
        value: +run.seed.seedSeconds.toFixed(1),
        unit: 's',
      },
      {
        name: `data: VACUUM ANALYZE and CHECKPOINT after the seed, ${run.size.label}`,
        value: +run.seed.analyzeSeconds.toFixed(1),
        unit: 's',
      },
    );
  }
  for (const name of names) {
    for (const run of [empty, large]) {
      const m = run.endpoints.get(name);
      if (m?.kind !== 'timed') continue;
      const refused = refusals(m);
      figures.push({
        name: `data: ${name}, ${run.size.label}: p95 (p50 ${m.timing.p50} ms${refused ? `; ${refused}` : ''})`,
        value: m.timing.p95,
        unit: 'ms',
      });
    }
    const ratio = ratioOf(empty.endpoints.get(name), large.endpoints.get(name));
    if (ratio !== null) {
      figures.push({
        name: `data: ${name}: p95 ${large.size.label} ÷ ${empty.size.label}`,
        value: ratio,
        unit: '×',
        goal: `≤ ${GOAL_RATIO}`,
        met: ratio <= GOAL_RATIO,
      });
    }
    const walk = large.walks.get(name);
    if (walk?.supported) {
      figures.push({
        name: `data: cursor walk to ${name}, ${large.size.label} (${walk.requests} pages)`,
        value: +(walk.ms / 1000).toFixed(2),
        unit: 's',
      });
    }
  }
  return figures;
}

/**
 * The parts BENCH_DATA_PARTS names: the endpoints timed on a near-empty and a seeded database, and
 * publishing at blog scale (publish-scale.ts); skipped (saying so) without PostgreSQL.
 */
export async function dataScaleBench(
  startProcess: StartProcess,
): Promise<{ figures: Figure[]; table: string }> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const skipped =
      'Skipped: the data-scale section seeds PostgreSQL; set BENCH_DATABASE_URL or TEST_DATABASE_URL.';
    return { figures: [], table: skipped };
  }
  const parts = wantedParts();
  const large = largeSize();
  const figures: Figure[] = [];
  const tables: string[] = [];
  if (parts.has('endpoints')) {
    const endpoints = await endpointsBench(startProcess, adminUrl, large);
    figures.push(...endpoints.figures);
    tables.push(endpoints.table);
  }
  if (parts.has('publish')) {
    const publish = await publishScaleBench(adminUrl, large === SIZES.full);
    figures.push(...publish.figures);
    tables.push(publish.table);
  }
  return { figures, table: tables.join('\n\n') };
}

/** The endpoints part: the near-empty and the seeded database, timed endpoint by endpoint. */
async function endpointsBench(
  startProcess: StartProcess,
  adminUrl: string,
  large: DataSize,
): Promise<{ figures: Figure[]; table: string }> {
  const targets = deepTargets(large);
  const emptySetUp = await setUpSize(startProcess, adminUrl, SIZES.empty, targets);
  try {
    const largeSetUp = await setUpSize(startProcess, adminUrl, large, targets);
    try {
      const [emptyRun, largeRun] = await measureBoth(emptySetUp, largeSetUp);
      const names = [...largeRun.endpoints.keys()];
      return {
        figures: figuresOf(emptyRun, largeRun, names),
        table: tableOf(emptyRun, largeRun, names),
      };
    } finally {
      await largeSetUp.close();
    }
  } finally {
    await emptySetUp.close();
  }
}
