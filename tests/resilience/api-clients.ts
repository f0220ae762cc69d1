/**
 * API clients (issue 36): developers' programs that retry. 50 clients, each with its own key,
 * create videos through POST /v1/videos with an Idempotency-Key and give up waiting at random
 * (a client-side timeout of a few to a few hundred milliseconds, so the server often finishes a
 * request nobody reads), then send the same request again with the same key until they get an
 * answer. Most prompts fail in the local renderer, so refunds run under the same load.
 *
 * What must hold, read from the database after a graceful stop: every idempotency key that was
 * answered 202 made exactly one video, charged once; every answer for one key named the same
 * video; every failed video was refunded once; the ledger sums; no 5xx.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { openPglite } from '../../server/core/db-pglite.ts';
import {
  buy,
  createClient,
  FAIL_PREFIX,
  newUser,
  signIn,
  Stats,
  type Behaviour,
} from './driver.ts';
import { check, ledgerChecks, taskCounts, type Check } from './invariants.ts';
import { freePort, sleep } from '../helpers/process.ts';
import { makeDataDir, startNode, stop, type Proc } from './processes.ts';
import type { Profile } from './profiles.ts';
import { answerChecks, statsFields, type ScenarioResult } from './report.ts';

const ADMIN = { username: 'resilience', password: randomBytes(12).toString('hex') };

/** One client: its key and, per idempotency key, every video id an answer named. */
interface ApiClient {
  key: string;
  answers: Map<string, Set<string>>;
  /** Keys still unanswered when the client gave up (the run's time ran out). */
  unanswered: string[];
  /** Requests it stopped waiting for (and sent again). */
  timeouts: number;
  /** 202s answered from the stored answer of an earlier attempt. */
  replays: number;
}

async function waitForApi(base: string, proc: Proc, timeoutMs = 120_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (!proc.running()) throw new Error(`the server exited: ${await proc.exited}`);
    const ok = await fetch(`${base}/api/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error('the server did not answer in time');
}

/** Waits until the queue is empty (admin overview, fresh). */
async function drain(base: string, timeoutMs: number): Promise<void> {
  const login = await fetch(`${base}/api/auth/admin-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const token = ((await login.json()) as { data: { token: string } }).data.token;
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const res = await fetch(`${base}/api/admin/overview?fresh=true`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await res.json()) as { data: { tasks: { pending: number; processing: number } } };
    if (body.data.tasks.pending + body.data.tasks.processing === 0) return;
    await sleep(300);
  }
}

/** One create, sent until an answer comes: timeouts and 409s (still running) are retried. */
async function createVideo(
  base: string,
  client: ApiClient,
  stats: Stats,
  real: boolean,
  until: number,
): Promise<void> {
  const idempotencyKey = randomUUID();
  const body = JSON.stringify({
    prompt: `${real ? '' : `${FAIL_PREFIX} `}A lighthouse in a storm, seen from a boat`,
    ...(Math.random() < 0.5 ? { resolution: '1080p' } : {}),
    metadata: { client: 'resilience' },
  });
  const ids = new Set<string>();
  client.answers.set(idempotencyKey, ids);
  while (Date.now() < until) {
    stats.requests += 1;
    const started = Date.now();
    let res: Response;
    let status: number;
    let text: string;
    try {
      res = await fetch(`${base}/v1/videos`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${client.key}`,
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body,
        // The client gives up at random; the server may still finish the request.
        signal: AbortSignal.timeout(5 + Math.floor(Math.random() * 1500)),
      });
      status = res.status;
      text = await res.text();
    } catch (error) {
      // A timeout the client chose is expected (then the same request again); anything else is
      // a request the server failed to answer.
      if ((error as Error).name === 'TimeoutError') {
        client.timeouts += 1;
        continue;
      }
      const detail = `${(error as Error).name}: ${(error as Error).message}`;
      stats.networkErrors.push({
        label: 'POST /v1/videos',
        status: null,
        detail,
        at: Date.now(),
        started,
      });
      return;
    }
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
    if (status >= 500) {
      stats.serverErrors.push({
        label: 'POST /v1/videos',
        status,
        detail: text.slice(0, 300),
        at: Date.now(),
      });
      return;
    }
    if (status === 202) {
      ids.add((JSON.parse(text) as { id: string }).id);
      if (res.headers.get('idempotent-replayed') === 'true') client.replays += 1;
      return;
    }
    // In flight under this key (409), or the key's cap or rate limit (429): wait, then again.
    if (status === 409 || status === 429) {
      await sleep(50 + Math.random() * 200);
      continue;
    }
    stats.unexpected.push({
      label: 'POST /v1/videos',
      status,
      detail: text.slice(0, 300),
      at: Date.now(),
    });
    return;
  }
  client.unanswered.push(idempotencyKey);
}

export async function runApiClients(profile: Profile): Promise<ScenarioResult> {
  const started = Date.now();
  const dataDir = await makeDataDir('resilience-api-');
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = startNode(
    'server',
    'server/main.ts',
    {
      PORT: String(port),
      DATA_DIR: dataDir,
      SERVE_SITE: 'false',
      VIDEO_WORKER: 'inline',
      VIDEO_WORKER_CONCURRENCY: '8',
      LOG_LEVEL: process.env.RESILIENCE_LOG_LEVEL ?? 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      // The clients retry at once after each timeout: the scenario is about what a retry
      // does, not about the minute's budget (tests/api/v1-frame-limits.test.ts tests that).
      API_REQUESTS_PER_MINUTE: '100000',
    },
    path.join(dataDir, 'server.log'),
  );
  const stats = new Stats();
  const clients: ApiClient[] = [];
  const { clients: count, videosPerClient, renders } = profile.apiClients;
  let keep = false;
  try {
    await waitForApi(base, proc);
    const b: Behaviour = {
      client: createClient(stats),
      slugs: [],
      renders: { left: 0 },
      until: Date.now() + 60_000,
      thinkMs: [0, 0],
    };
    // Each client's developer signs in, buys a pack and creates a key on the session API.
    await Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const u = newUser(base, 'api', i);
        if (!(await signIn(b, u))) return;
        await buy(b, u, true);
        const res = await b.client.request(
          base,
          'POST /api/account/api-keys',
          '/api/account/api-keys',
          {
            method: 'POST',
            headers: { authorization: `Bearer ${u.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'resilience', scopes: ['videos:write', 'videos:read'] }),
          },
          [201],
        );
        if (res?.status !== 201) return;
        const key = (JSON.parse(res.body) as { data: { key: string } }).data.key;
        clients.push({ key, answers: new Map(), unanswered: [], timeouts: 0, replays: 0 });
      }),
    );
    const until = Date.now() + profile.drainTimeoutMs;
    let realLeft = renders;
    await Promise.all(
      clients.map(async (client) => {
        for (let n = 0; n < videosPerClient; n++) {
          const real = realLeft > 0 && Math.random() < 0.1;
          if (real) realLeft -= 1;
          await createVideo(base, client, stats, real, until);
        }
      }),
    );
    await drain(base, profile.drainTimeoutMs);
    await stop(proc);

    const database = await openPglite(path.join(dataDir, 'db'));
    try {
      const db = database.db;
      const tasks = new Map(
        (
          await queryRows<{ id: string; api_key_id: string | null }>(
            db,
            sql`select id, api_key_id from video_tasks`,
          )
        ).map((r) => [r.id, r]),
      );
      const answered = clients.flatMap((c) =>
        [...c.answers.values()].filter((ids) => ids.size > 0),
      );
      const accepted = answered.map((ids) => [...ids][0]!);
      const checks: Check[] = [
        ...answerChecks(stats),
        check(
          'one video per idempotency key (every answer for a key names the same video)',
          answered.filter((ids) => ids.size > 1).map((ids) => [...ids]),
          `${answered.length} keys answered 202`,
        ),
        check(
          'every accepted video exists',
          accepted.filter((id) => !tasks.has(id)),
          `${accepted.length} videos`,
        ),
        check(
          'no video made that no key was answered with',
          [...tasks.keys()].filter((id) => !accepted.includes(id)),
          `${tasks.size} videos in the database`,
        ),
        check(
          'every request answered before the run ended',
          clients.flatMap((c) => c.unanswered),
          `${clients.length} clients`,
        ),
        ...(await ledgerChecks(db)),
      ];
      keep = checks.some((c) => !c.ok);
      return {
        name: `${count} API clients with retries and random timeouts`,
        database: 'pglite',
        seconds: (Date.now() - started) / 1000,
        ...statsFields(stats),
        tasks: await taskCounts(db),
        notes: [
          `${clients.length} keys, ${accepted.length} videos accepted, ` +
            `${clients.reduce((n, c) => n + c.timeouts, 0)} requests abandoned by their client and sent again, ` +
            `${clients.reduce((n, c) => n + c.replays, 0)} answered as replays`,
        ],
        checks,
      };
    } finally {
      await database.close();
    }
  } catch (error) {
    keep = true;
    throw error;
  } finally {
    if (proc.running()) proc.child.kill('SIGKILL');
    if (!keep && !process.env.RESILIENCE_KEEP) await rm(dataDir, { recursive: true, force: true });
  }
}
