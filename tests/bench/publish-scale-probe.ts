/**
 * What the publish-scale bench (publish-scale.ts) looks at from outside the server: the server as
 * a child process it starts and stops itself (so start-up is timed from the spawn), its memory and
 * that of its `astro build` children read from /proc, its pages as a reader gets them, the disk
 * its releases take, the posts seeded into its database by SQL, and its editor's API session.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { blogPath, postPath } from '../../shared/blog.ts';
import { PATH_PREFIXES, type Locale } from '../../shared/locales.ts';
import { freePort, PROJECT_ROOT, sleep } from '../helpers/process.ts';
import { json } from './data-scale-http.ts';
import { SEED_POSTS_SQL } from './data-scale-seed.ts';

/** `server/main.ts` running as a child, on a port chosen before the spawn. */
export interface ServerChild {
  child: ChildProcess;
  base: string;
  /** performance.now() at the spawn. */
  spawnedAt: number;
  /** The end of its output, for errors. */
  logTail(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

/**
 * Spawns `server/main.ts` with `env` on a free port and returns at once: the caller times what it
 * waits for. Output goes to a file, read only when something fails.
 */
export async function spawnServer(env: Record<string, string>): Promise<ServerChild> {
  const port = await freePort();
  const logDir = await mkdtemp(path.join(tmpdir(), 'veo3-bench-publish-log-'));
  const logPath = path.join(logDir, 'output.log');
  const out = openSync(logPath, 'a');
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, SAMPLE_CLIPS: 'off', ...env, PORT: String(port) },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    base: `http://127.0.0.1:${port}`,
    spawnedAt,
    logTail: () => readFileSync(logPath, 'utf8').slice(-3000),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(logDir, { recursive: true, force: true });
    },
  };
}

/**
 * Calls `check` every `intervalMs` until it answers non-null; throws (with the server's last
 * output) after `timeoutMs` or when the server exits.
 */
export async function waitFor<T>(
  server: ServerChild,
  what: string,
  timeoutMs: number,
  check: () => Promise<T | null>,
  intervalMs = 100,
): Promise<T> {
  const started = performance.now();
  // A refused connection is expected while the server starts; the last error is kept to explain
  // a timeout.
  let lastError = '';
  for (;;) {
    const found = await check().catch((error: unknown) => {
      lastError = ` (last error: ${(error as Error).message})`;
      return null;
    });
    if (found !== null) return found;
    if (server.child.exitCode !== null) {
      throw new Error(`server/main.ts exited while waiting for ${what}:\n${server.logTail()}`);
    }
    if (performance.now() - started > timeoutMs) {
      throw new Error(
        `No ${what} after ${Math.round(timeoutMs / 1000)} s${lastError}; server output:\n${server.logTail()}`,
      );
    }
    await sleep(intervalMs);
  }
}

/** Whether `url` answers 200. */
export async function answers200(url: string): Promise<boolean> {
  const res = await fetch(url, { redirect: 'manual' });
  await res.arrayBuffer();
  return res.status === 200;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The text of `title` as a page or feed carries it (HTML/XML escaped). */
const escapeText = (title: string) => title.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/**
 * Whether the post's address (/blog/{slug}, /zh/blog/{slug}) is its own static page showing
 * `title`: 200, its canonical link, the title in its <h1>, and not the article shell (noindex),
 * which answers the same address with 200 while the rebuild is pending.
 */
export async function articleShows(
  base: string,
  slug: string,
  title: string,
  locale: Locale = 'en',
): Promise<boolean> {
  const address = postPath(slug, locale);
  const res = await fetch(`${base}${address}`, { redirect: 'manual' });
  const html = await res.text();
  if (res.status !== 200 || /<meta name="robots" content="noindex"/.test(html)) return false;
  const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '';
  if (!canonical.endsWith(address)) return false;
  const h1 = /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? '';
  return h1.includes(title) || h1.includes(escapeText(title));
}

/** What a publish makes live: the article, its language's first list page and feed, the sitemap. */
export const LIVE_ITEMS = ['article', 'list', 'feed', 'sitemap'] as const;
export type LiveItem = (typeof LIVE_ITEMS)[number];

/** How each of LIVE_ITEMS is seen to show a just-published post. */
export function publishProbes(
  base: string,
  post: { slug: string; title: string; locale: Locale },
): Record<LiveItem, () => Promise<boolean>> {
  const shows = (urlPath: string, text: string) => async () => {
    const res = await fetch(`${base}${urlPath}`, { redirect: 'manual' });
    const body = await res.text();
    return res.status === 200 && body.includes(text);
  };
  return {
    article: () => articleShows(base, post.slug, post.title, post.locale),
    list: shows(blogPath(post.locale), escapeText(post.title)),
    feed: shows(`${PATH_PREFIXES[post.locale]}/rss.xml`, escapeText(post.title)),
    sitemap: shows('/sitemap-0.xml', `${postPath(post.slug, post.locale)}</loc>`),
  };
}

/**
 * Seconds from `started` until each probe first answers true, all polled every 100 ms; throws
 * (with `failure()`'s explanation, if any) after `timeoutMs` or when `failure` reports one.
 */
export async function timesUntilLive<K extends string>(
  probes: Record<K, () => Promise<boolean>>,
  started: number,
  timeoutMs: number,
  failure: () => string | null = () => null,
): Promise<Record<K, number>> {
  const times: Partial<Record<K, number>> = {};
  const keys = Object.keys(probes) as K[];
  for (;;) {
    await Promise.all(
      keys
        .filter((key) => times[key] === undefined)
        .map(async (key) => {
          if (await probes[key]().catch(() => false)) {
            times[key] = (performance.now() - started) / 1000;
          }
        }),
    );
    if (keys.every((key) => times[key] !== undefined)) return times as Record<K, number>;
    const failed = failure();
    if (failed) throw new Error(failed);
    if (performance.now() - started > timeoutMs) {
      const missing = keys.filter((key) => times[key] === undefined).join(', ');
      throw new Error(`Not live after ${Math.round(timeoutMs / 1000)} s: ${missing}`);
    }
    await sleep(100);
  }
}

/** A file of /proc, or '' once its process is gone. Read synchronously: see sampleAstroPeak. */
function readProc(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** VmRSS and VmHWM of a process from one read of /proc/<pid>/status, in kB (null: gone). */
function procMemoryKb(pid: number) {
  const status = readProc(`/proc/${pid}/status`);
  const kb = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) : null;
  };
  return { VmRSS: kb('VmRSS'), VmHWM: kb('VmHWM') };
}

/** pid → parent pid of every process, from /proc/<pid>/stat (the parent is field 4). */
function parentsByPid(): Map<number, number> {
  const parents = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = readProc(`/proc/${pid}/stat`);
    // The command name (field 2) may hold spaces and parentheses: read after its last ')'.
    const parent = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
    if (parent) parents.set(Number(pid), Number(parent));
  }
  return parents;
}

/** Peak memory of the `astro build` processes seen under one process, in kB. */
export interface AstroPeak {
  /** The largest VmHWM of any one astro process. */
  peakKb: number;
  /** The largest sum of the VmRSS of the astro processes running at one sample. */
  concurrentKb: number;
  /** How many astro processes ran. */
  processes: number;
}

export interface AstroPeakSampler {
  /** What was seen since the start or the last `reset`. */
  read(): AstroPeak;
  reset(): void;
  stop(): Promise<void>;
}

/**
 * Every 100 ms, finds the descendants of `rootPid` (walking parent chains in /proc) whose command
 * line runs `astro.mjs`, and keeps the largest VmHWM (the kernel's own peak of resident memory)
 * of any one of them. A process's VmHWM only grows, so the last sample before it exits is close
 * to its true peak. Builds that run side by side (a site and its articles) add up: the largest
 * sum of their VmRSS at one sample is kept too. /proc is read synchronously: a walk takes ~2 ms,
 * where reading its hundreds of tiny files through the async API costs ~12 ms of CPU, every 100 ms,
 * that the builds being measured would miss.
 */
export function sampleAstroPeak(rootPid: number): AstroPeakSampler {
  let seen: AstroPeak = { peakKb: 0, concurrentKb: 0, processes: 0 };
  let pids = new Set<number>();
  let running = true;
  const isDescendant = (pid: number, parents: Map<number, number>) => {
    for (let at = parents.get(pid); at !== undefined && at > 1; at = parents.get(at)) {
      if (at === rootPid) return true;
    }
    return false;
  };
  const loop = (async () => {
    while (running) {
      const parents = parentsByPid();
      let concurrentKb = 0;
      for (const pid of parents.keys()) {
        if (!isDescendant(pid, parents)) continue;
        if (!readProc(`/proc/${pid}/cmdline`).includes('astro.mjs')) continue;
        const memory = procMemoryKb(pid);
        if (memory.VmHWM === null) continue;
        pids.add(pid);
        seen.peakKb = Math.max(seen.peakKb, memory.VmHWM);
        concurrentKb += memory.VmRSS ?? 0;
      }
      seen.concurrentKb = Math.max(seen.concurrentKb, concurrentKb);
      seen.processes = pids.size;
      await sleep(100);
    }
  })();
  return {
    read: () => ({ ...seen }),
    reset() {
      seen = { peakKb: 0, concurrentKb: 0, processes: 0 };
      pids = new Set();
    },
    async stop() {
      running = false;
      await loop;
    },
  };
}

const run = promisify(execFile);

/** Bytes of disk `du -s` counts under `dir` (blocks allocated; a hard-linked file once). */
export async function diskBytes(dir: string): Promise<number> {
  const { stdout } = await run('du', ['-s', '--block-size=1', dir]);
  return Number(stdout.split('\t')[0]);
}

/** Waiting for a build to go live gives up after this long. */
export const LIVE_TIMEOUT_MS = 10 * 60_000;

/** A seeded post as the editor's PUT needs it. */
export interface SeededPost {
  id: string;
  slug: string;
  title: string;
  content: string;
  excerpt: string;
  tags: string[];
}

/** The slug of seeded post `n` (1 is the oldest). */
const seededSlug = (n: number) => `bench-post-${n}`;

/** Migrates the fresh database and inserts `count` published posts; answers the seconds taken. */
export async function seedPosts(url: string, count: number): Promise<number> {
  const migrations = openPostgres(url, 2);
  try {
    await migrations.migrate();
  } finally {
    await migrations.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await client.query(SEED_POSTS_SQL, [count]);
    await client.query('analyze posts');
    return (performance.now() - started) / 1000;
  } finally {
    await client.end();
  }
}

/** Runs `statement` on the database at `url`; answers its rows. */
export async function query<T extends pg.QueryResultRow>(
  url: string,
  statement: string,
  params: unknown[],
) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(statement, params)).rows;
  } finally {
    await client.end();
  }
}

/** Seeded post `n` as the database holds it now. */
export async function seededPost(url: string, n: number): Promise<SeededPost> {
  const [row] = await query<SeededPost>(
    url,
    'select id, slug, title, content, excerpt, tags from posts where slug = $1',
    [seededSlug(n)],
  );
  if (!row) throw new Error(`Seeded post ${seededSlug(n)} is missing.`);
  return row;
}

/** The editor's session on one server: its requests and the build status. */
export function editorOf(base: string, token: string) {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  type Saved = { data: { slug: string } };
  const status = async () =>
    (
      await json<{ data: { state: string; releaseId: string | null; error: string | null } }>(
        await fetch(`${base}/api/blog/admin/build-status`, { headers }),
      )
    ).data;
  return {
    status,
    async create(title: string, locale: Locale = 'en'): Promise<string> {
      const body = {
        title,
        locale,
        content: `<p>${'A paragraph about planning short clips. '.repeat(15)}</p>`,
        status: 'published',
        tags: ['bench'],
      };
      const res = await fetch(`${base}/api/blog/admin/posts`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      return (await json<Saved>(res)).data.slug;
    },
    /** Saves `post` with `changes`; answers its slug (a new title on a published post moves it). */
    async update(post: SeededPost, changes: Partial<SeededPost>): Promise<string> {
      const { title, content, excerpt, tags } = { ...post, ...changes };
      const res = await fetch(`${base}/api/blog/admin/posts/${post.id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ title, content, excerpt, tags, status: 'published' }),
      });
      return (await json<Saved>(res)).data.slug;
    },
  };
}
type Editor = ReturnType<typeof editorOf>;

/**
 * Waits until the build the last save queued is live: the state 'live' with another release id
 * than `before`; then a second more and 'live' again, so a build queued behind it counts too.
 */
export async function settle(server: ServerChild, editor: Editor, before: string | null) {
  // A failed build leaves the release id as it was: its error ends the wait instead.
  const live = async () => {
    const s = await editor.status();
    if (s.state !== 'live') return null;
    return s.error ? { failed: s.error } : s.releaseId !== before ? { failed: null } : null;
  };
  const { failed } = await waitFor(server, 'a new live release', LIVE_TIMEOUT_MS, live);
  if (failed) throw new Error(`The publish failed: ${failed}`);
  await sleep(1000);
  const quiet = async () => ((await editor.status()).state === 'live' ? true : null);
  await waitFor(server, 'build status live', LIVE_TIMEOUT_MS, quiet);
}

/** Seconds from `started` until /blog/{slug} is the static page showing `title`. */
export async function secondsUntilPage(
  server: ServerChild,
  slug: string,
  title: string,
  started: number,
  timeoutMs = LIVE_TIMEOUT_MS,
) {
  const shows = async () => ((await articleShows(server.base, slug, title)) ? true : null);
  await waitFor(server, `/blog/${slug} showing “${title}”`, timeoutMs, shows);
  return (performance.now() - started) / 1000;
}

/**
 * Seconds from `started` until each of LIVE_ITEMS shows the post just published on `server`
 * (which must not exit meanwhile).
 */
export function timesUntilPublished(
  server: ServerChild,
  post: { slug: string; title: string; locale: Locale },
  started: number,
  timeoutMs = LIVE_TIMEOUT_MS,
): Promise<Record<LiveItem, number>> {
  return timesUntilLive(publishProbes(server.base, post), started, timeoutMs, () =>
    server.child.exitCode === null
      ? null
      : `server/main.ts exited while publishing ${post.slug}:\n${server.logTail()}`,
  );
}

/** The server's resident memory now, in kB. */
export const serverRssKb = (server: ServerChild) => procMemoryKb(server.child.pid!).VmRSS ?? 0;
