/**
 * Real processes for the resilience suite: `server/main.ts` and `server/worker.ts` started as
 * `npm start` / `npm run worker` would, each with its output in a log file (the checks read the
 * build and worker lines back), stopped gracefully or killed outright.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sleep } from '../helpers/process.ts';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Where runs keep their data directories: inside the project, because `astro build` writes its
 * intermediate server output next to an outDir inside the working directory but into the
 * project's shared .astro/ for one outside it, where two builds at once break each other.
 */
export async function makeDataDir(prefix: string): Promise<string> {
  const parent = path.join(ROOT, '.test-output');
  await mkdir(parent, { recursive: true });
  return mkdtemp(path.join(parent, prefix));
}

export interface Proc {
  name: string;
  logFile: string;
  child: ChildProcess;
  /** Resolves when the process has exited, with its code or the signal that ended it. */
  exited: Promise<string>;
  running(): boolean;
}

/**
 * Settings every process of the suite shares. Empty values override a developer's `.env`
 * (process.loadEnvFile never replaces a variable that is already set), so nothing leaks in.
 */
export const BASE_ENV: Record<string, string> = {
  NODE_ENV: 'development',
  HOST: '127.0.0.1',
  DATABASE_URL: '',
  STRIPE_SECRET_KEY: '',
  STRIPE_WEBHOOK_SECRET: '',
  STRIPE_API_BASE: '',
  SMTP_URL: '',
  GOOGLE_CLIENT_ID: '',
  PUBLIC_GA_MEASUREMENT_ID: '',
  VIDEO_ROUTE_TEXT: 'local:local',
  VIDEO_ROUTE_IMAGE: 'local:local',
  // A fixed origin: it is an input of the site build, so a restart on another port reuses the
  // release instead of rebuilding it.
  PUBLIC_SITE_URL: 'http://localhost:4321',
  // Hundreds of simulated users sign in from one address.
  AUTH_RATE_LIMIT_PER_MINUTE: '100000',
  // A killed worker's task is reclaimed this soon.
  VIDEO_LEASE_SECONDS: '5',
  // These prompts fail in the local renderer, so the refund path runs under load too.
  LOCAL_RENDER_FAIL_PATTERN: '^FAIL:',
  // No sample clip renders in the background: the suite measures the product, not ffmpeg.
  SAMPLE_CLIPS: 'off',
};

/** Starts `script` (relative to the project) with the Node that runs the suite (Node 24). */
export function startNode(
  name: string,
  script: string,
  env: Record<string, string>,
  logFile: string,
): Proc {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [script], {
    cwd: ROOT,
    env: { ...process.env, ...BASE_ENV, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  let alive = true;
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => {
      alive = false;
      resolve(signal ?? `exit ${code}`);
    });
  });
  return { name, logFile, child, exited, running: () => alive };
}

export async function logTail(proc: Proc, chars = 3000): Promise<string> {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  return text.slice(-chars);
}

/**
 * Waits until `base`/rss.xml answers 200: the whole site is live (a first start makes `/` live
 * before the blog's pages), which comes after the API (the server
 * listens first and builds or loads its release in the background). Fails early when the
 * process dies.
 */
export async function waitHealthy(base: string, proc: Proc, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (!proc.running()) {
      throw new Error(
        `${proc.name} exited (${await proc.exited}) before it was ready:\n${await logTail(proc)}`,
      );
    }
    try {
      // The whole site: a first start makes `/` live before the blog's pages (the feed is one).
      const res = await fetch(`${base}/rss.xml`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(
    `${proc.name} was not ready after ${timeoutMs / 1000} s:\n${await logTail(proc)}`,
  );
}

/** SIGTERM (graceful: the worker hands its tasks back, the database closes) and wait. */
export async function stop(proc: Proc, timeoutMs = 20_000): Promise<string> {
  if (!proc.running()) return proc.exited;
  proc.child.kill('SIGTERM');
  const timer = setTimeout(() => proc.child.kill('SIGKILL'), timeoutMs);
  try {
    return await proc.exited;
  } finally {
    clearTimeout(timer);
  }
}

/** SIGKILL: no handler runs, nothing is flushed or handed back. */
export async function kill(proc: Proc): Promise<void> {
  if (!proc.running()) return;
  proc.child.kill('SIGKILL');
  await proc.exited;
}

/** One JSON log line of pino. */
export interface LogLine {
  time: number;
  msg?: string;
  level: number;
  [key: string]: unknown;
}

/** The pino lines of a process's log (other output is skipped). */
export async function readLogLines(proc: Proc): Promise<LogLine[]> {
  const text = await readFile(proc.logFile, 'utf8').catch(() => '');
  const lines: LogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as LogLine;
      if (typeof parsed.time === 'number') lines.push(parsed);
    } catch {
      // a line cut by SIGKILL
    }
  }
  return lines;
}
