/**
 * Where the API server's CPU goes per request (issue 33, item 2): starts `npm start` as the bench
 * does (tests/bench/run.ts, section `api`), then for each target runs autocannon against it while
 * V8's sampling profiler (the one `node --cpu-prof` uses, driven over the inspector so each
 * profile covers one target's load and nothing of the start-up) records, and prints the top
 * self-time entries per target. The profiles are written as .cpuprofile files (open them in
 * Chrome DevTools' Performance panel).
 *
 * Before each profile, a run without the profiler gives the server's CPU time per request (all
 * its threads, from /proc/{pid}/stat): unlike req/s and the profile's self times, which are wall
 * time, it hardly moves when other processes load the machine.
 *
 *   node tests/bench/profile-api.ts [outDir]
 *   PROFILE_ONLY=health,blog-list PROFILE_SECONDS=8 DATABASE_URL=postgres://… node tests/bench/profile-api.ts
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { processCpuMicros } from '../helpers/measure.ts';
import { sleep } from '../helpers/process.ts';
import { developerVideo, richUser } from './fixtures.ts';

const root = path.resolve(import.meta.dirname, '../..');
const outDir = path.resolve(process.argv[2] ?? path.join(tmpdir(), 'veo3-profiles'));
const seconds = Number(process.env.PROFILE_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const top = Number(process.env.PROFILE_TOP ?? 10);
const only = process.env.PROFILE_ONLY?.split(',');

interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** A minimal Chrome DevTools Protocol client over the inspector's WebSocket. */
async function inspector(url: string) {
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve, { once: true });
    socket.addEventListener('error', reject, { once: true });
  });
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}): Promise<T> {
      const id = nextId++;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => waiting.set(id, resolve as (result: unknown) => void));
    },
    close: () => socket.close(),
  };
}

/** Self time per function (name, file, line), largest first, as shares of the busy time. */
function selfTimes(profile: CpuProfile): Array<{ name: string; ms: number; share: number }> {
  const frames = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const byFrame = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((nodeId, i) => {
    const frame = frames.get(nodeId)!;
    const us = profile.timeDeltas[i] ?? 0;
    if (frame.functionName === '(idle)') return;
    const where = frame.url
      ? ` ${frame.url.replace(/^file:\/\//, '').replace(`${root}/`, '')}:${frame.lineNumber + 1}`
      : '';
    const key = `${frame.functionName || '(anonymous)'}${where}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + us);
    busy += us;
  });
  return [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .map(([name, us]) => ({ name, ms: us / 1000, share: us / busy }));
}

async function main() {
  await mkdir(outDir, { recursive: true });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-profile-'));
  const logPath = path.join(dataDir, 'server.log');
  const out = openSync(logPath, 'a');
  // The bench's server (startServer in run.ts): same log level, no worker, no sample renders.
  const child = spawn(process.execPath, ['--inspect=127.0.0.1:0', 'server/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: path.join(dataDir, 'data'),
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      NODE_ENV: 'development',
      VIDEO_WORKER: 'off',
      SAMPLE_CLIPS: 'off',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      API_REQUESTS_PER_MINUTE: '1000000',
    },
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  try {
    let port = 0;
    let wsUrl = '';
    for (const started = Date.now(); ; await sleep(200)) {
      const text = readFileSync(logPath, 'utf8');
      wsUrl ||= /Debugger listening on (ws:\/\/\S+)/.exec(text)?.[1] ?? '';
      port ||= Number(/listening on http:\/\/[\d.]+:(\d+)/.exec(text)?.[1] ?? 0);
      if (wsUrl && port && text.includes('site ready at')) break;
      if (child.exitCode !== null) throw new Error(`server exited:\n${text.slice(-3000)}`);
      if (Date.now() - started > 300_000) throw new Error('server not ready after 300 s');
    }
    const base = `http://127.0.0.1:${port}`;
    // The bench's own fixtures (run.ts): a user with credits, and a developer's video.
    const token = await richUser(base, 'profile@bench.example');
    const list = (await (await fetch(`${base}/api/blog/posts?page=1&limit=12`)).json()) as {
      data: { posts: Array<{ slug: string }> };
    };
    const slug = list.data.posts[0]?.slug ?? 'missing';
    const v1 = await developerVideo(base, token);
    const apiKey = v1.headers;
    // A target with a path function asks for a new path on every request (nothing cached).
    const targets: Array<[string, string, Record<string, string>?, (() => string)?]> = [
      ['health', '/api/health'],
      ['health-live', '/api/health/live'],
      ['blog-list', '/api/blog/posts?page=1&limit=12'],
      ['balance', '/api/credits/balance', { authorization: `Bearer ${token}` }],
      ['v1-credits', '/v1/credits', apiKey],
      ['v1-video', `/v1/videos/${v1.id}`, apiKey],
      // The same unknown id every time: after the first poll, a cached miss.
      ['v1-video-missing', '/v1/videos/00000000-0000-4000-8000-000000000000', apiKey],
      // A new id every time: the database read an uncached poll makes (a video being made is
      // re-read after each of its changes).
      ['v1-video-uncached', '/v1/videos/{random id}', apiKey, () => `/v1/videos/${randomUUID()}`],
      ['static-home', '/'],
      ['static-article', `/blog/${slug}`],
    ];
    const cdp = await inspector(wsUrl);
    await cdp.call('Profiler.enable');
    for (const [name, urlPath, headers = {}, freshPath] of targets) {
      if (only && !only.includes(name)) continue;
      const url = freshPath ? base : base + urlPath;
      const load = (duration: number) =>
        autocannon({
          url,
          connections,
          duration,
          headers,
          ...(freshPath
            ? { requests: [{ setupRequest: (request) => ({ ...request, path: freshPath() }) }] }
            : {}),
        });
      await load(1);
      const cpuBefore = await processCpuMicros(child.pid!);
      const plain = await load(seconds);
      const cpuUs = (await processCpuMicros(child.pid!)) - cpuBefore;
      const perRequest = cpuUs / plain.requests.total;
      await cdp.call('Profiler.start');
      const result = await load(seconds);
      const { profile } = await cdp.call<{ profile: CpuProfile }>('Profiler.stop');
      await writeFile(path.join(outDir, `${name}.cpuprofile`), JSON.stringify(profile));
      const rows = selfTimes(profile).slice(0, top);
      console.log(
        `\n### ${name}: GET ${urlPath.replace(slug, '{slug}')} — ${perRequest.toFixed(1)} µs server CPU per request (${Math.round(plain.requests.average)} req/s without the profiler, ${Math.round(result.requests.average)} with; ${result.non2xx} non-2xx; ${seconds} s, ${connections} connections)\n`,
      );
      console.log('| # | self ms | share of busy | function |\n|---:|---:|---:|---|');
      rows.forEach((r, i) =>
        console.log(
          `| ${i + 1} | ${r.ms.toFixed(0)} | ${(r.share * 100).toFixed(1)} % | ${r.name.replaceAll('|', '\\|')} |`,
        ),
      );
    }
    cdp.close();
    console.log(`\nprofiles in ${outDir}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) =>
      child.exitCode !== null ? resolve(null) : child.once('exit', resolve),
    );
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
