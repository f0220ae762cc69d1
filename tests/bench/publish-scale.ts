/**
 * `npm run bench` section `data`, part `publish` (issue 19, item 5): publishing, start-up and
 * memory at blog scale, on PostgreSQL.
 *
 * For each size (1,000 published posts; also 10,000 with BENCH_DATA=full) a fresh database gets
 * its posts by SQL (the shape of data-scale-seed.ts: ~750 bytes of HTML each, one hour apart),
 * then the real server starts on it (`server/main.ts` with SERVE_SITE, the real `astro build`, its
 * own DATA_DIR, an editor in BLOG_EDITORS signing in locally) and, once its first release is live:
 * 1. server RSS (VmRSS) after the first release and after each of 5 warm-up and then 20
 *    edit-and-wait-live cycles: the drift over the 20, last ÷ first (goal within ±10 %), and
 *    from the first release;
 * 2. publish-to-live (POST a published post, in English, then Chinese, then English: seconds
 *    until its article is its static page, until its language's first list page and feed show
 *    it, and until the sitemap lists it; goal ≤ 5 s for the article, and the four within 5 s of
 *    each other) and edit-to-live (PUT a new title on a seeded post until its page shows it),
 *    median of 3 each;
 * 3. the largest VmHWM of any `astro build` process under the server (/proc, every 100 ms), in
 *    the first full build and in the publish rebuilds;
 * 4. disk of DATA_DIR/site/releases (`du -s`: hard-linked files once) and of the live release;
 * 5. a restart after one post's title changed by SQL: spawn → /api/health 200 (listening),
 *    → 200 on / (the previous release served), → the changed page shows the new title.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { currentReleaseId, siteDirs } from '../../server/domains/site-build/release.ts';
import { median, type Figure } from '../helpers/measure.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import { localSignIn } from './data-scale-http.ts';
import {
  answers200,
  diskBytes,
  editorOf,
  LIVE_ITEMS,
  LIVE_TIMEOUT_MS,
  query,
  sampleAstroPeak,
  secondsUntilPage,
  seededPost,
  seedPosts,
  serverRssKb,
  settle,
  spawnServer,
  timesUntilPublished,
  waitFor,
  type AstroPeak,
  type AstroPeakSampler,
  type LiveItem,
  type ServerChild,
} from './publish-scale-probe.ts';
import type { Locale } from '../../shared/locales.ts';

/** One blog size: how many published posts the database holds. */
interface BlogSize {
  label: string;
  posts: number;
  /** Measured with BENCH_DATA=full only, so the default bench stays short. */
  fullOnly: boolean;
}

const SIZES: BlogSize[] = [
  { label: '1,000 posts', posts: 1_000, fullOnly: false },
  { label: '10,000 posts', posts: 10_000, fullOnly: true },
];

const EDITOR = { name: 'Bench Editor', email: 'editor@bench.example' };
/** Fixed, so the restarted server (on another port) hashes the same build settings. */
const SITE_URL = 'http://localhost:4321';
const GOAL_LIVE_SECONDS = 5;
/** The article, list, feed and sitemap of one publish: live within this many seconds of each other. */
const GOAL_SPREAD_SECONDS = 5;
/** The language of each publish-to-live repeat: both feeds and both lists are seen. */
const PUBLISH_LOCALES: Locale[] = ['en', 'zh-CN', 'en'];
const GOAL_START_SECONDS = 5;
const GOAL_RSS_DRIFT_PERCENT = 10;
const REPEATS = 3;
const RSS_CYCLES = 20;
/** Publishes before the RSS series: they grow the heap V8 keeps (the heap in use stays flat). */
const WARMUP_CYCLES = 5;
const EDIT_CYCLES = WARMUP_CYCLES + RSS_CYCLES;
/** A first full build of 10,000 pages on a small machine takes minutes. */
const FIRST_BUILD_TIMEOUT_MS = 30 * 60_000;

/** The figures of one size. Times in seconds, memory and disk in kB and bytes as read. */
interface SizeRun {
  size: BlogSize;
  seedSeconds: number;
  firstLiveSeconds: number;
  firstBuildPeak: AstroPeak;
  rebuildPeak: AstroPeak;
  /** RSS after the first release and each warm-up publish; then after the warm-up and each. */
  warmupKb: number[];
  rssKb: number[];
  /** Per repeat: seconds from the POST until each item showed the post. */
  publishToLive: Array<Record<LiveItem, number>>;
  editToLive: number[];
  disk: { releasesBytes: number; releases: number; liveReleaseBytes: number };
  restart: { listening: number; home: number; changedLive: number };
}

const marker = () => Math.random().toString(36).slice(2, 8);

/** One size: seeded, served, measured, torn down. */
async function measureSize(adminUrl: string, size: BlogSize): Promise<SizeRun> {
  const database = await createPostgresDatabase(adminUrl, 'bench_publish_');
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-publish-'));
  const env = {
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'info',
    NODE_ENV: 'development',
    SERVE_SITE: 'true',
    VIDEO_WORKER: 'off',
    BLOG_EDITORS: EDITOR.email,
    PUBLIC_SITE_URL: SITE_URL,
  };
  let server: ServerChild | null = null;
  let sampler: AstroPeakSampler | null = null;
  try {
    const seedSeconds = await seedPosts(database.url, size.posts);
    console.log(`data: publish: seeded ${size.label} in ${seedSeconds.toFixed(2)} s`);
    server = await spawnServer(env);
    sampler = sampleAstroPeak(server.child.pid!);
    const newest = await seededPost(database.url, size.posts);
    const firstLiveSeconds = await secondsUntilPage(
      server,
      newest.slug,
      newest.title,
      server.spawnedAt,
      FIRST_BUILD_TIMEOUT_MS,
    );
    const firstBuildPeak = sampler.read();
    sampler.reset();
    console.log(
      `data: publish: ${size.label}: first release live in ${firstLiveSeconds.toFixed(1)} s`,
    );

    const { token } = await localSignIn(server.base, EDITOR.name, EDITOR.email);
    const editor = editorOf(server.base, token);
    const live = async () => ((await editor.status()).state === 'live' ? true : null);
    await waitFor(server, 'build status live', LIVE_TIMEOUT_MS, live);

    // Server memory across publishes: one edited post per cycle, each waited for until live.
    const warmupKb = [serverRssKb(server)];
    const rssKb: number[] = [];
    for (let i = 0; i < EDIT_CYCLES; i++) {
      const post = await seededPost(database.url, size.posts - 1 - i);
      const before = (await editor.status()).releaseId;
      await editor.update(post, { content: `${post.content}<p>Edit ${marker()}</p>` });
      await settle(server, editor, before);
      if (i < WARMUP_CYCLES - 1) warmupKb.push(serverRssKb(server));
      else rssKb.push(serverRssKb(server));
    }
    console.log(
      `data: publish: ${size.label}: server RSS MB by publish: ${[...warmupKb, ...rssKb].map(mb).join(', ')}`,
    );

    const publishToLive: Array<Record<LiveItem, number>> = [];
    const editToLive: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const title = `Publish scale ${i + 1} ${marker()}`;
      const locale = PUBLISH_LOCALES[i % PUBLISH_LOCALES.length]!;
      let before = (await editor.status()).releaseId;
      let started = performance.now();
      const slug = await editor.create(title, locale);
      publishToLive.push(await timesUntilPublished(server, { slug, title, locale }, started));
      await settle(server, editor, before);

      const post = await seededPost(database.url, size.posts - EDIT_CYCLES - 1 - i);
      const newTitle = `Bench post ${size.posts - EDIT_CYCLES - 1 - i} retitled ${marker()}`;
      before = (await editor.status()).releaseId;
      started = performance.now();
      const moved = await editor.update(post, { title: newTitle });
      editToLive.push(await secondsUntilPage(server, moved, newTitle, started));
      await settle(server, editor, before);
    }
    const rebuildPeak = sampler.read();
    await sampler.stop();
    sampler = null;

    const { releases } = siteDirs(dataDir);
    const liveRelease = await currentReleaseId(dataDir);
    const disk = {
      releasesBytes: await diskBytes(releases),
      releases: (await readdir(releases)).length,
      liveReleaseBytes: liveRelease ? await diskBytes(path.join(releases, liveRelease)) : 0,
    };

    // Restart with one post changed behind the server's back: the old release must serve at once.
    await server.stop();
    server = null;
    const changed = await seededPost(database.url, 1);
    const changedTitle = `Bench post 1 changed offline ${marker()}`;
    await query(database.url, 'update posts set title = $1, updated_at = now() where id = $2', [
      changedTitle,
      changed.id,
    ]);
    server = await spawnServer(env);
    const restarted = server;
    const since = () => (performance.now() - restarted.spawnedAt) / 1000;
    const answering = (urlPath: string) => () =>
      answers200(`${restarted.base}${urlPath}`).then((ok) => ok || null);
    await waitFor(server, '/api/health 200', LIVE_TIMEOUT_MS, answering('/api/health'), 20);
    const listening = since();
    await waitFor(server, '200 on /', LIVE_TIMEOUT_MS, answering('/'), 20);
    const home = since();
    // The rebuild after a restart renders the whole blog again unless the builder caches pages.
    const changedLive = await secondsUntilPage(
      server,
      changed.slug,
      changedTitle,
      server.spawnedAt,
      FIRST_BUILD_TIMEOUT_MS,
    );
    return {
      size,
      seedSeconds,
      firstLiveSeconds,
      firstBuildPeak,
      rebuildPeak,
      warmupKb,
      rssKb,
      publishToLive,
      editToLive,
      disk,
      restart: { listening, home, changedLive },
    };
  } finally {
    await sampler?.stop();
    await server?.stop();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const mb = (kb: number) => +(kb / 1024).toFixed(0);
const diskMb = (bytes: number) => +(bytes / 1024 ** 2).toFixed(1);
const seconds = (value: number) => +value.toFixed(1);
const peakDetail = (peak: AstroPeak) =>
  `${peak.processes} astro processes; at most ${mb(peak.concurrentKb)} MB RSS at once`;
const listed = (values: number[]) => values.map((v) => v.toFixed(1)).join(', ');
const driftPercent = (rss: number[]) => +((100 * (rss.at(-1)! - rss[0]!)) / rss[0]!).toFixed(1);

/** One row of figures: its name, its value per size run, its goal. */
interface Row {
  name: string;
  unit: string;
  value: (run: SizeRun) => number;
  /** What the value alone does not say (the repeats, the other readings). */
  detail?: (run: SizeRun) => string;
  goal?: { text: string; met: (value: number) => boolean };
}

/** What each live item is, in a row's name. */
const LIVE_LABELS: Record<LiveItem, string> = {
  article: 'its static page',
  list: "its language's first list page shows it",
  feed: "its language's feed lists it",
  sitemap: 'the sitemap lists it',
};

/** Seconds between the first and the last item of one publish to go live. */
const spread = (times: Record<LiveItem, number>) =>
  Math.max(...Object.values(times)) - Math.min(...Object.values(times));

const liveGoal = { text: `≤ ${GOAL_LIVE_SECONDS}`, met: (v: number) => v <= GOAL_LIVE_SECONDS };
const startGoal = { text: `≤ ${GOAL_START_SECONDS}`, met: (v: number) => v <= GOAL_START_SECONDS };

const ROWS: Row[] = [
  { name: 'seed (SQL insert)', unit: 's', value: (r) => +r.seedSeconds.toFixed(2) },
  {
    name: 'first start: spawn → first release live (full build)',
    unit: 's',
    value: (r) => seconds(r.firstLiveSeconds),
  },
  ...LIVE_ITEMS.map((item): Row => ({
    name: `publish-to-live (POST → ${LIVE_LABELS[item]}), median of ${REPEATS} (${PUBLISH_LOCALES.join(', ')})`,
    unit: 's',
    value: (r) => seconds(median(r.publishToLive.map((times) => times[item]))),
    detail: (r) => listed(r.publishToLive.map((times) => times[item])),
    ...(item === 'article' ? { goal: liveGoal } : {}),
  })),
  {
    name: `publish-to-live: article, list, feed and sitemap apart (largest of ${REPEATS})`,
    unit: 's',
    value: (r) => seconds(Math.max(...r.publishToLive.map(spread))),
    detail: (r) => listed(r.publishToLive.map(spread)),
    goal: {
      text: `≤ ${GOAL_SPREAD_SECONDS}`,
      met: (v: number) => v <= GOAL_SPREAD_SECONDS,
    },
  },
  {
    name: `edit-to-live (PUT a new title → page shows it), median of ${REPEATS}`,
    unit: 's',
    value: (r) => seconds(median(r.editToLive)),
    detail: (r) => listed(r.editToLive),
    goal: liveGoal,
  },
  {
    name: 'astro build peak RSS (VmHWM), first full build',
    unit: 'MB',
    value: (r) => mb(r.firstBuildPeak.peakKb),
    detail: (r) => peakDetail(r.firstBuildPeak),
  },
  {
    name: `astro build peak RSS (VmHWM), ${EDIT_CYCLES + 2 * REPEATS} publish rebuilds`,
    unit: 'MB',
    value: (r) => mb(r.rebuildPeak.peakKb),
    detail: (r) => peakDetail(r.rebuildPeak),
  },
  {
    name: `server RSS drift over ${RSS_CYCLES} publishes after ${WARMUP_CYCLES} (last ÷ first − 1)`,
    unit: '%',
    value: (r) => driftPercent(r.rssKb),
    detail: (r) =>
      `after the warm-up ${mb(r.rssKb[0]!)} MB, last ${mb(r.rssKb.at(-1)!)} MB, max ${mb(Math.max(...r.rssKb))} MB; from the first release (${mb(r.warmupKb[0]!)} MB) ${driftPercent([r.warmupKb[0]!, r.rssKb.at(-1)!])} %`,
    goal: {
      text: `within ±${GOAL_RSS_DRIFT_PERCENT} %`,
      met: (v) => Math.abs(v) <= GOAL_RSS_DRIFT_PERCENT,
    },
  },
  {
    name: 'restart with a post changed: spawn → listening (/api/health 200)',
    unit: 's',
    value: (r) => seconds(r.restart.listening),
    goal: startGoal,
  },
  {
    name: 'restart with a post changed: spawn → 200 on / (previous release)',
    unit: 's',
    value: (r) => seconds(r.restart.home),
    goal: startGoal,
  },
  {
    name: 'restart with a post changed: spawn → the changed page live',
    unit: 's',
    value: (r) => seconds(r.restart.changedLive),
  },
  {
    name: `disk: DATA_DIR/site/releases after ${EDIT_CYCLES + 2 * REPEATS} publishes (du -s)`,
    unit: 'MB',
    value: (r) => diskMb(r.disk.releasesBytes),
    detail: (r) => `${r.disk.releases} releases kept`,
  },
  {
    name: 'disk: the live release alone (du -s)',
    unit: 'MB',
    value: (r) => diskMb(r.disk.liveReleaseBytes),
  },
];

type Outcome = { run: SizeRun } | { failed: string } | { skipped: string };

function cell(outcome: Outcome, row: Row): string {
  if ('skipped' in outcome) return outcome.skipped;
  if ('failed' in outcome) return 'failed';
  const value = row.value(outcome.run);
  const goal = row.goal ? ` ${row.goal.met(value) ? '✓' : '✗'}` : '';
  const detail = row.detail ? ` (${row.detail(outcome.run)})` : '';
  return `${value} ${row.unit}${goal}${detail}`;
}

function tableOf(outcomes: Array<[BlogSize, Outcome]>): string {
  const failures = outcomes.flatMap(([size, o]) =>
    'failed' in o
      ? [`- ${size.label} failed: ${o.failed.replaceAll('\n', ' ').slice(0, 600)}`]
      : [],
  );
  return [
    'Publishing, start-up and memory at blog scale on PostgreSQL (server/main.ts with SERVE_SITE and the real astro build; issue 19, item 5):',
    '',
    `| figure | ${outcomes.map(([size]) => size.label).join(' | ')} | goal |`,
    `|---|${outcomes.map(() => '---:|').join('')}---|`,
    ...ROWS.map(
      (row) =>
        `| ${row.name} | ${outcomes.map(([, o]) => cell(o, row)).join(' | ')} | ${row.goal?.text ?? ''} |`,
    ),
    ...(failures.length ? ['', ...failures] : []),
  ].join('\n');
}

function figuresOf(outcomes: Array<[BlogSize, Outcome]>): Figure[] {
  return outcomes.flatMap(([size, outcome]): Figure[] => {
    if ('skipped' in outcome) return [];
    if ('failed' in outcome) {
      return [
        {
          name: `data: publish part, ${size.label}: failed`,
          value: 1,
          unit: '',
          goal: '0',
          met: false,
        },
      ];
    }
    return ROWS.map((row) => {
      const value = row.value(outcome.run);
      const detail = row.detail ? ` (${row.detail(outcome.run)})` : '';
      return {
        name: `data: ${row.name}, ${size.label}${detail}`,
        value,
        unit: row.unit,
        ...(row.goal ? { goal: row.goal.text, met: row.goal.met(value) } : {}),
      };
    });
  });
}

/**
 * The publish part at 1,000 posts, and at 10,000 too when `full` (BENCH_DATA=full); a size that
 * fails is reported in the table and as an unmet figure, and the other still runs.
 */
export async function publishScaleBench(
  adminUrl: string,
  full: boolean,
): Promise<{ figures: Figure[]; table: string }> {
  const outcomes: Array<[BlogSize, Outcome]> = [];
  for (const size of SIZES) {
    if (size.fullOnly && !full) {
      outcomes.push([size, { skipped: 'run with BENCH_DATA=full' }]);
      continue;
    }
    try {
      outcomes.push([size, { run: await measureSize(adminUrl, size) }]);
    } catch (error) {
      console.error(`data: publish part at ${size.label} failed:`, error);
      outcomes.push([size, { failed: (error as Error).message }]);
    }
  }
  return { figures: figuresOf(outcomes), table: tableOf(outcomes) };
}
