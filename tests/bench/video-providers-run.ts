/**
 * One run of the `video` bench section (video-providers.ts): 50 customers submit at once through
 * the HTTP API, routed to one production adapter talking to its fake over real HTTP, and the real
 * worker takes every task to its end while 429s (with a short Retry-After) and 503s are injected
 * into its submits. Then the run is checked from the database and the fake: every task ended as
 * its prompt marker says, each failed one was refunded exactly once and no completed one was, and
 * no prompt reached the provider twice.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { createVideoMedia } from '../../server/domains/video/media.ts';
import { createVideoWorker } from '../../server/domains/video/worker.ts';
import type { VideoProviderFake } from '../fakes/video/control.ts';
import { signInLocal } from '../helpers/app.ts';
import type { DatabaseKind } from '../helpers/database.ts';
import { grantCredits, pngImage, requestGeneration } from '../helpers/video.ts';
import { ledgerChecks } from '../resilience/invariants.ts';
import { VIDEO_COST } from '../../shared/video.ts';
import { benchApp, openBenchDatabase } from './video-providers-app.ts';
import { createStepTimer, perTask, type TaskTiming } from './video-providers-timing.ts';

export const TASKS = 50;
/** Pause between two status checks of a job (production waits seconds; the fakes answer at once). */
export const POLL_MS = 50;
/** Status checks each job needs before it is done at the fake. */
export const POLLS_UNTIL_DONE = 2;
const TIMEOUT_MS = 120_000;
/**
 * Failures injected into submits: [fake jobs accepted before, count, answer]. The adapter tries
 * a submit 3 times, so a batch is at most 2 and the next comes only once the last is served and
 * no submit is between retries: each submit rides its refusals out in the adapter, and the run
 * measures that path every time (a submit refused 3 times waits 15 s in our queue instead).
 */
export const INJECTIONS = [
  [0, 2, { status: 429, retryAfterSeconds: 1 }],
  [15, 2, { status: 503 }],
  [30, 2, { status: 429, retryAfterSeconds: 1 }],
] as const;

type Outcome = 'completed' | 'policy' | 'fail';

/** Task i's prompt: one in ten refused by the safety filter, one in ten failing at the provider. */
function spec(provider: string, i: number): { prompt: string; outcome: Outcome; image: boolean } {
  const outcome: Outcome = i % 10 === 3 ? 'policy' : i % 10 === 7 ? 'fail' : 'completed';
  const marker = outcome === 'completed' ? '' : `[${outcome}] `;
  return {
    prompt: `${marker}bench ${provider} ${i}: a drone shot over a coastline at sunrise`,
    outcome,
    // One in ten animates a first frame.
    image: i % 10 === 1,
  };
}

export interface RunResult {
  provider: string;
  database: DatabaseKind;
  slots: number;
  tasks: number;
  completed: number;
  failed: number;
  refunds: number;
  /** Prompts the fake accepted more than one job for. */
  duplicateSubmits: number;
  requeuedSubmits: number;
  injected: { 429: number; 503: number };
  /** Injected failures the fake actually answered (all of them, or the run did not test them). */
  served: { 429: number; 503: number };
  /** From the first submit to the end of the step that finished the last task. */
  wallMs: number;
  timings: TaskTiming[];
  unattributed: TaskTiming;
  idle: { claims: number; ms: number };
  problems: string[];
}

export async function runProvider(
  fake: VideoProviderFake,
  kind: DatabaseKind,
  pgUrl: string | null,
): Promise<RunResult> {
  const name = fake.provider;
  const problems: string[] = [];
  fake.pollsUntilDone = POLLS_UNTIL_DONE;
  const t = await benchApp(await openBenchDatabase(kind, pgUrl), {
    ...fake.env,
    VIDEO_ROUTE_TEXT: `${name}:${fake.models.text}`,
    VIDEO_ROUTE_IMAGE: `${name}:${fake.models.image}`,
    VIDEO_WORKER: 'off',
  });
  const db = t.database.db;
  let inject: NodeJS.Timeout | undefined;
  try {
    const specs = Array.from({ length: TASKS }, (_, i) => spec(name, i));
    const frame = await pngImage(640, 360);
    const tokens = await Promise.all(
      specs.map(async (_, i) => {
        const user = await signInLocal(t.app, `${name}-${kind}-${i}@bench.example`);
        await grantCredits(t, user.user.id, VIDEO_COST);
        return user.token;
      }),
    );

    const timer = createStepTimer();
    const logged = (level: string) => (obj: object, msg?: string) =>
      problems.push(`worker logged ${level}: ${msg ?? ''} ${JSON.stringify(obj).slice(0, 300)}`);
    const slots = t.config.video.concurrency;
    const worker = createVideoWorker({
      db,
      providers: Object.fromEntries(
        Object.entries(t.app.videoProviders).map(([key, p]) => [key, timer.provider(p)]),
      ),
      routes: t.config.video.routes,
      media: timer.media(createVideoMedia(t.app.mediaStore, t.dataDir)),
      // Refused submits are expected (the injected 429s and 503s); the worker's own errors are not.
      log: { info() {}, warn() {}, error: logged('an error') },
      concurrency: slots,
      leaseMs: t.config.video.leaseMs,
      pollIntervalMs: POLL_MS,
      idleMs: POLL_MS,
      expectedMs: 3 * 60_000,
      // Poll only, as a server without a public URL runs.
      webhookBase: null,
      breaker: t.config.video.breaker,
      checkResult: timer.checkResult,
    });

    // Injected as the run goes, so refusals meet both the first submits and later ones.
    const pending = [...INJECTIONS];
    let injectedSoFar = 0;
    const injectDue = () => {
      const next = pending[0];
      if (!next || fake.jobs.length < next[0] || timer.submitsInFlight() > 0) return;
      if (fake.requests.filter((r) => r.status === 429 || r.status === 503).length < injectedSoFar)
        return;
      pending.shift();
      fake.failSubmits(next[1], { ...next[2] });
      injectedSoFar += next[1];
    };
    injectDue();
    inject = setInterval(injectDue, 5);

    const open = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from video_tasks where status in ('pending', 'processing')`,
        )
      )[0]!.n;
    let submitted = false;
    const started = performance.now();
    // The worker runs while the customers submit, as in production.
    const driving = timer.drive(worker, {
      slots,
      idleMs: POLL_MS,
      timeoutMs: TIMEOUT_MS,
      finished: async () => submitted && (await open()) === 0,
      onError: (error) => problems.push(`processNext threw: ${String(error)}`),
    });
    const answers = await Promise.all(
      specs.map((s, i) =>
        requestGeneration(
          t.app,
          tokens[i]!,
          { prompt: s.prompt, model: s.image ? 'veo3-fast-frames' : 'veo3' },
          s.image
            ? { name: 'image', filename: 'frame.png', type: 'image/png', data: frame }
            : undefined,
        ),
      ),
    ).finally(() => (submitted = true));
    const lastStepEnd = await driving;
    clearInterval(inject);
    for (const [i, res] of answers.entries()) {
      if (res.statusCode !== 200)
        problems.push(`submit ${i} answered ${res.statusCode}: ${res.body}`);
    }

    const tasks = await queryRows<{ prompt: string; status: string; failure_kind: string | null }>(
      db,
      sql`select prompt, status, failure_kind from video_tasks`,
    );
    const refunds = (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from credit_transactions where source_type = 'refund'`,
      )
    )[0]!.n;
    // Submits refused even after the adapter's retries: the task waited in our queue for another.
    const requeuedSubmits = (
      await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from video_tasks, jsonb_array_elements(route_attempts) a
            where a->>'outcome' <> 'accepted'`,
      )
    )[0]!.n;
    problems.push(...checkOutcomes(specs, tasks, fake));
    // No checkout here (credits are granted), so the check against paid packs does not apply.
    for (const c of await ledgerChecks(db)) {
      if (!c.ok && c.name !== 'balance = packs paid − videos kept')
        problems.push(`${c.name}: ${c.detail}`);
    }

    const jobsPerPrompt = new Map<string, number>();
    for (const job of fake.jobs)
      jobsPerPrompt.set(job.prompt, (jobsPerPrompt.get(job.prompt) ?? 0) + 1);
    const duplicateSubmits = [...jobsPerPrompt.values()].filter((n) => n > 1).length;
    if (duplicateSubmits > 0) problems.push(`${duplicateSubmits} prompt(s) submitted twice`);

    const injected = { 429: 0, 503: 0 };
    for (const [, count, failure] of INJECTIONS) injected[failure.status] += count;
    const served = {
      429: fake.requests.filter((r) => r.status === 429).length,
      503: fake.requests.filter((r) => r.status === 503).length,
    };
    if (served[429] !== injected[429] || served[503] !== injected[503]) {
      problems.push(
        `injected 429/503 ${injected[429]}/${injected[503]}, served ${served[429]}/${served[503]}`,
      );
    }

    const { tasks: timings, unattributed } = perTask(timer.steps);
    return {
      provider: name,
      database: kind,
      slots,
      tasks: tasks.length,
      completed: tasks.filter((r) => r.status === 'completed').length,
      failed: tasks.filter((r) => r.status === 'failed').length,
      refunds,
      duplicateSubmits,
      requeuedSubmits,
      injected,
      served,
      wallMs: lastStepEnd - started,
      timings: [...timings.values()],
      unattributed,
      idle: timer.idle,
      problems,
    };
  } finally {
    clearInterval(inject);
    await t.close();
  }
}

/** Each task ended as its prompt said: [policy] refused, [fail] failed at the provider, others done. */
function checkOutcomes(
  specs: Array<{ prompt: string; outcome: Outcome }>,
  tasks: Array<{ prompt: string; status: string; failure_kind: string | null }>,
  fake: VideoProviderFake,
): string[] {
  const problems: string[] = [];
  const byPrompt = new Map(tasks.map((r) => [r.prompt, r]));
  const expected = {
    completed: ['completed', null],
    policy: ['failed', 'content_policy'],
    fail: ['failed', 'provider'],
  };
  for (const s of specs) {
    const task = byPrompt.get(s.prompt);
    const [status, kind] = expected[s.outcome];
    if (!task) problems.push(`no task for "${s.prompt}"`);
    else if (task.status !== status || task.failure_kind !== kind)
      problems.push(
        `"${s.prompt}": ${task.status}/${task.failure_kind}, expected ${status}/${kind}`,
      );
    // A completed task was generated by exactly one provider job.
    if (s.outcome === 'completed' && fake.jobs.filter((j) => j.prompt === s.prompt).length !== 1)
      problems.push(`"${s.prompt}": completed without exactly one provider job`);
  }
  return problems;
}
