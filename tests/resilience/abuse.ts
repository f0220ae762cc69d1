/**
 * Abuse: one `npm start` process (API only, embedded database) under the two attacks of issue 16
 * that took the service down. "Slow connections" (finding 5) holds 2,000 connections that send a
 * header byte every few seconds and measures /api/health from fresh connections meanwhile;
 * "Large bodies" (finding 6) floods anonymous routes with 880 KB JSON bodies of 60,000 keys and
 * measures /api/health's median against the idle one.
 */
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { openFileLimits } from '../../server/core/open-files.ts';
import { freePort, sleep } from '../helpers/process.ts';
import { check, type Check } from './invariants.ts';
import { logTail, makeDataDir, startNode, stop, type Proc } from './processes.ts';
import type { Profile } from './profiles.ts';
import { resultWithoutTraffic, type ScenarioResult } from './report.ts';

export type AbuseScenario = 'slow' | 'bodies';

const SLOW_CONNECTIONS = 2000;
/**
 * The headers deadline (10 s, server/config.ts), the 1 s sweep that enforces it, and a second for
 * a busy machine to close 2,000 sockets at once.
 */
const CLOSED_BY_MS = 10_000 + 1000 + 1000;

interface Answer {
  status: number | null;
  ms: number;
  /**
   * The server closed the connection before its answer was read (EPIPE/ECONNRESET while the
   * body was still being written): a refusal too, never a timeout.
   */
  cutOff?: boolean;
}

/** One request on a connection of its own (no keep-alive), timed until its answer has arrived. */
function timedRequest(
  port: number,
  urlPath: string,
  init: { method?: string; body?: Buffer; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    let settled = false;
    let timedOut = false;
    const done = (status: number | null, error?: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      const cutOff =
        !timedOut && (error?.code === 'EPIPE' || error?.code === 'ECONNRESET') ? true : undefined;
      resolve({ status, ms: performance.now() - started, ...(cutOff ? { cutOff } : {}) });
    };
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: urlPath,
        method: init.method ?? 'GET',
        agent: false,
        headers: init.body
          ? { 'content-type': 'application/json', 'content-length': init.body.length }
          : {},
        timeout: init.timeoutMs ?? 10_000,
      },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? null));
        res.on('error', () => done(res.statusCode ?? null));
      },
    );
    // The server may answer (413) and stop reading before the body is sent: the answer counts.
    req.on('error', (error) => done(null, error));
    req.on('timeout', () => {
      timedOut = true;
      req.destroy();
    });
    req.end(init.body);
  });
}

/** The `p`th percentile of the answers' times (or of plain numbers). */
const percentile = (values: Array<Answer | number>, p: number) => {
  const sorted = values.map((v) => (typeof v === 'number' ? v : v.ms)).sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

/** `count` health checks, `parallel` at a time, each on a new connection. */
async function healthTimes(port: number, count: number, parallel = 4): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next += 1;
        answers.push(await timedRequest(port, '/api/health'));
      }
    }),
  );
  return answers;
}

interface SlowSocket {
  socket: Socket;
  /** When its request began (the headers deadline counts from there). */
  startedAt: number;
  closedAt: number | null;
}

/** Opens `count` connections that start a request and then send one header byte at a time. */
async function openSlowConnections(port: number, count: number): Promise<SlowSocket[]> {
  const slow: SlowSocket[] = [];
  // In batches: a burst of thousands of SYNs overflows the listen backlog and costs retries.
  for (let opened = 0; opened < count; opened += 250) {
    const batch = Array.from({ length: Math.min(250, count - opened) }, () => {
      const entry: SlowSocket = {
        socket: connect(port, '127.0.0.1'),
        startedAt: Infinity,
        closedAt: null,
      };
      entry.socket.on('error', () => {});
      // Read (and drop) the 408 the server ends with: a paused socket would notice its close late.
      entry.socket.resume();
      entry.socket.on('close', () => (entry.closedAt = performance.now()));
      slow.push(entry);
      return new Promise<void>((resolve) => {
        entry.socket.once('connect', () => {
          entry.socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
          entry.startedAt = performance.now();
          resolve();
        });
        entry.socket.once('close', () => resolve());
      });
    });
    await Promise.all(batch);
  }
  return slow;
}

async function runSlowConnections(port: number, profile: Profile): Promise<ScenarioResult> {
  const began = performance.now();
  const idle = await healthTimes(port, 50);
  const slow = await openSlowConnections(port, SLOW_CONNECTIONS);
  const openedAt = performance.now();
  // A header byte every 2 s on every connection: never idle, never finished.
  const drip = setInterval(() => {
    for (const s of slow) if (s.closedAt === null) s.socket.write('a');
  }, 2000);
  try {
    const held = slow.filter((s) => s.closedAt === null).length;
    const during = await healthTimes(port, profile.name === 'short' ? 200 : 500);
    const heldAfter = slow.filter((s) => s.closedAt === null).length;
    const measuredFor = performance.now() - openedAt;
    // The server, not the client, ends them: wait out the headers deadline.
    while (slow.some((s) => s.closedAt === null) && performance.now() - openedAt < CLOSED_BY_MS) {
      await sleep(250);
    }
    const lifetimes = slow.map((s) => (s.closedAt ?? Infinity) - s.startedAt);
    const longest = Math.max(...lifetimes);
    const after = await healthTimes(port, 20);
    const p99 = percentile(during, 99);
    const failed = [...during, ...after].filter((a) => a.status !== 200);
    const checks: Check[] = [
      check(
        `held ${SLOW_CONNECTIONS} slow connections while measuring`,
        heldAfter < SLOW_CONNECTIONS ? [`${held} held at the start, ${heldAfter} at the end`] : [],
        `${heldAfter} open after ${(measuredFor / 1000).toFixed(1)} s`,
      ),
      check(
        '/api/health p99 under 200 ms while they are held',
        p99 < 200 ? [] : [`p99 ${ms(p99)}`],
        `p50 ${ms(percentile(during, 50))}, p99 ${ms(p99)}, max ${ms(percentile(during, 100))} ` +
          `(idle p50 ${ms(percentile(idle, 50))})`,
      ),
      check(
        'every health check answered 200, during and after',
        failed.map((a) => a.status ?? 'no answer'),
        `${during.length + after.length} answers`,
      ),
      check(
        'the server closed every slow connection at its headers deadline',
        longest <= CLOSED_BY_MS ? [] : [`one lived ${ms(longest)}`],
        `each closed ${(percentile(lifetimes, 50) / 1000).toFixed(1)} s (median), ` +
          `${(longest / 1000).toFixed(1)} s (longest) after its first byte`,
      ),
    ];
    return result('Slow connections', began, [...idle, ...during, ...after], checks, [
      `${SLOW_CONNECTIONS} connections sending a header byte every 2 s`,
    ]);
  } finally {
    clearInterval(drip);
    for (const s of slow) s.socket.destroy();
  }
}

/** `{"email":…,"k00000":"xyz",…}`: 60,000 keys, about 880 KB, as the review sent. */
function manyKeysBody(): Buffer {
  const entries = Array.from(
    { length: 60_000 },
    (_, i) => `"k${String(i).padStart(5, '0')}":"xyz"`,
  );
  return Buffer.from(`{"email":"flood@example.com","password":"x",${entries.join(',')}}`);
}

interface Flood {
  flood: Answer[];
  health: Answer[];
  /** CPU seconds the server spent meanwhile (user + system). */
  serverCpu: number;
}

/**
 * Four clients, each posting `body` again as soon as the last is answered, to the sign-in form
 * and to the data API (public; larger bodies there only with a session), while /api/health is
 * timed one request after another.
 */
async function floodWith(port: number, pid: number, body: Buffer, durationMs: number) {
  const cpuBefore = cpuSeconds(pid);
  const until = performance.now() + durationMs;
  const flood: Answer[] = [];
  const health: Answer[] = [];
  const senders = Array.from({ length: 4 }, async (_, i) => {
    const urlPath = i % 2 === 0 ? '/auth/signin' : '/api/db/posts';
    while (performance.now() < until) {
      flood.push(await timedRequest(port, urlPath, { method: 'POST', body }));
    }
  });
  const measure = (async () => {
    await sleep(300);
    while (performance.now() < until) health.push(await timedRequest(port, '/api/health'));
  })();
  await Promise.all([...senders, measure]);
  return { flood, health, serverCpu: cpuSeconds(pid) - cpuBefore } satisfies Flood;
}

/** utime + stime of a process, from /proc (0 where there is none). */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

const p50 = (answers: Answer[]) => percentile(answers, 50);

async function runLargeBodies(
  port: number,
  pid: number,
  profile: Profile,
): Promise<ScenarioResult> {
  const began = performance.now();
  const large = manyKeysBody();
  // The control: the same requests with a body of two keys, refused by validation or policy.
  const small = Buffer.from('{"k00000":"xyz","k00001":"xyz"}');
  const seconds = profile.name === 'short' ? 4000 : 15_000;
  const idle = await healthTimes(port, 100, 1);
  const control = await floodWith(port, pid, small, seconds);
  const attack = await floodWith(port, pid, large, seconds);

  const floodP99 = percentile(attack.flood, 99);
  const perRequest = (f: Flood) => `${((f.serverCpu / f.flood.length) * 1000).toFixed(2)} ms`;
  const compared =
    `p50 ${ms(p50(attack.health))} during the flood, ${ms(p50(control.health))} during ` +
    `the small-body flood, ${ms(p50(idle))} idle`;
  const checks: Check[] = [
    // Refused means a 413, or (on a busy machine, the server closing the connection while the
    // client was still writing the body it never reads) a cut-off; never a timeout or another
    // status. Most must still be 413s, so the refusal is the server's answer, not a crash.
    check(
      'every large body refused with 413, unread',
      [
        ...attack.flood
          .filter((a) => a.status !== 413 && !a.cutOff)
          .map((a) => a.status ?? 'no answer'),
        ...(attack.flood.filter((a) => a.status === 413).length * 2 >= attack.flood.length
          ? []
          : ['fewer than half answered 413']),
      ],
      `${attack.flood.length} bodies of ${Math.round(large.length / 1024)} KB, ` +
        `${attack.flood.filter((a) => a.cutOff).length} cut off while sending, ` +
        `p50 ${ms(p50(attack.flood))}, p99 ${ms(floodP99)}`,
    ),
    check(
      'large bodies answered quickly (p99 under 500 ms)',
      floodP99 < 500 ? [] : [`p99 ${ms(floodP99)}`],
      `server CPU per request ${perRequest(attack)} (small bodies: ${perRequest(control)})`,
    ),
    // Idle is the target; on a machine busy with other work any flood at full speed slows the
    // health check, so the flood of small bodies is the bar: large ones must cost no more.
    check(
      '/api/health p50 during the flood within 10 ms of idle or of small bodies',
      p50(attack.health) <= Math.max(p50(idle), p50(control.health)) + 10 ? [] : [compared],
      compared,
    ),
    check(
      'every health check answered 200',
      [...idle, ...control.health, ...attack.health]
        .filter((a) => a.status !== 200)
        .map((a) => a.status ?? 'no answer'),
      `${idle.length + control.health.length + attack.health.length} answers`,
    ),
  ];
  const answers = [...idle, ...control.health, ...control.flood, ...attack.health, ...attack.flood];
  return result('Large bodies', began, answers, checks, [
    `4 clients posting ${Math.round(large.length / 1024)} KB / 60,000-key JSON for ` +
      `${seconds / 1000} s, after as long with 2-key bodies`,
  ]);
}

function result(
  name: string,
  began: number,
  answers: Answer[],
  checks: Check[],
  notes: string[],
): ScenarioResult {
  const byStatus: Record<string, number> = {};
  for (const a of answers) {
    if (a.status !== null) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
  }
  const fiveXx = answers.filter((a) => (a.status ?? 0) >= 500).length;
  const noAnswer = answers.filter((a) => a.status === null).length;
  return {
    name,
    database: 'pglite',
    seconds: (performance.now() - began) / 1000,
    requests: answers.length,
    byStatus,
    fiveXx,
    networkErrors: { total: noAnswer, unexplained: noAnswer },
    tasks: {},
    notes,
    checks: [check('zero 5xx', fiveXx ? [`${fiveXx} answers ≥ 500`] : [], 'none'), ...checks],
  };
}

const NAMES: Record<AbuseScenario, string> = {
  slow: 'Slow connections',
  bodies: 'Large bodies',
};

/** The scenarios in `only`, on one server started for them (API only, embedded database). */
export async function runAbuse(
  profile: Profile,
  only: AbuseScenario[],
  record: (result: ScenarioResult) => void,
): Promise<void> {
  // The driver's connections and the server's each take a descriptor; Node raises its soft
  // limit to the hard one, so the hard limit is what counts.
  const needed = SLOW_CONNECTIONS + 500;
  const own = openFileLimits();
  if (only.includes('slow') && own && own.soft < needed) {
    record(
      resultWithoutTraffic(NAMES.slow, 'pglite', {
        skipped: `open-file limit ${own.soft} is below the ${needed} this scenario needs (raise ulimit -Hn)`,
      }),
    );
    only = only.filter((name) => name !== 'slow');
  }
  if (only.length === 0) return;
  const dataDir = await makeDataDir('resilience-abuse-');
  const port = await freePort();
  let proc: Proc | null = null;
  let keep = false;
  try {
    proc = startNode(
      'server',
      'server/main.ts',
      {
        PORT: String(port),
        DATA_DIR: dataDir,
        SERVE_SITE: 'false',
        VIDEO_WORKER: 'off',
        LOG_LEVEL: process.env.RESILIENCE_LOG_LEVEL ?? 'warn',
      },
      path.join(dataDir, 'server.log'),
    );
    await waitForApi(port, proc);
    for (const name of only) {
      try {
        const outcome =
          name === 'slow'
            ? await runSlowConnections(port, profile)
            : await runLargeBodies(port, proc.child.pid!, profile);
        keep ||= outcome.checks.some((c) => !c.ok);
        record(outcome);
      } catch (error) {
        keep = true;
        record(
          resultWithoutTraffic(NAMES[name], 'pglite', {
            checks: [{ name: 'scenario ran to the end', ok: false, detail: String(error) }],
          }),
        );
      }
    }
  } finally {
    if (proc) await stop(proc);
    if (keep || process.env.RESILIENCE_KEEP) console.log(`  data directory kept: ${dataDir}`);
    else await rm(dataDir, { recursive: true, force: true });
  }
}

/** Waits for /api/health (this server builds no site). */
async function waitForApi(port: number, proc: Proc, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (!proc.running()) throw new Error(`server exited:\n${await logTail(proc)}`);
    if ((await timedRequest(port, '/api/health', { timeoutMs: 2000 })).status === 200) return;
    await sleep(200);
  }
  throw new Error(`server not ready after ${timeoutMs / 1000} s:\n${await logTail(proc)}`);
}
