/**
 * `npm run bench` section `video` (issue 17): 50 concurrent generations through each production
 * video adapter and its fake (fal, Replicate, Vertex AI, Gemini), with injected 429s and 503s on
 * submit, safety refusals and provider failures (video-providers-run.ts). Every task must finish or
 * be refunded exactly once, no prompt may reach a provider twice; the figures are tasks per minute
 * per provider and where the worker's time per task goes (video-providers-timing.ts). On PGlite,
 * and on PostgreSQL too with BENCH_DATABASE_URL or TEST_DATABASE_URL.
 */
import { startFalFake } from '../fakes/fal/index.ts';
import { startGeminiFake } from '../fakes/gemini/index.ts';
import { startReplicateFake } from '../fakes/replicate/index.ts';
import { startVertexFake } from '../fakes/vertex/index.ts';
import type { VideoProviderFake } from '../fakes/video/control.ts';
import type { DatabaseKind } from '../helpers/database.ts';
import { median, type Figure } from '../helpers/measure.ts';
import {
  INJECTIONS,
  POLL_MS,
  POLLS_UNTIL_DONE,
  runProvider,
  TASKS,
  type RunResult,
} from './video-providers-run.ts';
import { percentile } from './video-providers-timing.ts';

const FAKES: Array<() => Promise<VideoProviderFake>> = [
  () => startFalFake(),
  () => startReplicateFake(),
  () => startVertexFake(),
  () => startGeminiFake(),
];

export interface VideoBenchRow {
  provider: string;
  database: DatabaseKind;
  /** Worker slots (VIDEO_WORKER_CONCURRENCY's default). */
  slots: number;
  tasks: number;
  completed: number;
  failed: number;
  refunds: number;
  duplicateSubmits: number;
  /** Submits refused after the adapter's own retries (the task waited in our queue). */
  requeuedSubmits: number;
  /** Injected 429s / 503s the fake answered. */
  served429: number;
  served503: number;
  wallS: number;
  /** Finished tasks (completed or failed) per minute of wall time. */
  tasksPerMin: number;
  /** Per task, means over all tasks: time inside adapter calls, result check, publish. */
  providerMs: number;
  checkMs: number;
  publishMs: number;
  /** The worker's own time per task: mean (steps naming no task included), median, p95. */
  overheadMs: number;
  overheadP50: number;
  overheadP95: number;
  /** Steps that named no task (no provider call: e.g. a provider skipped while rate limited). */
  unattributedSteps: number;
  /** Claims that found nothing due, per task: the queue's own polling. */
  idleClaimMs: number;
}

const round = (value: number, digits = 1) => +value.toFixed(digits);

function summarize(r: RunResult): VideoBenchRow {
  const sum = (pick: (t: RunResult['unattributed']) => number) =>
    r.timings.reduce((total, t) => total + pick(t), pick(r.unattributed));
  const finished = r.completed + r.failed;
  const overheads = r.timings.map((t) => t.overheadMs);
  return {
    provider: r.provider,
    database: r.database,
    slots: r.slots,
    tasks: r.tasks,
    completed: r.completed,
    failed: r.failed,
    refunds: r.refunds,
    duplicateSubmits: r.duplicateSubmits,
    requeuedSubmits: r.requeuedSubmits,
    served429: r.served[429],
    served503: r.served[503],
    wallS: round(r.wallMs / 1000),
    tasksPerMin: round(finished / (r.wallMs / 60_000)),
    providerMs: round(sum((t) => t.providerMs) / r.tasks),
    checkMs: round(sum((t) => t.checkMs) / r.tasks),
    publishMs: round(sum((t) => t.publishMs) / r.tasks),
    overheadMs: round(sum((t) => t.overheadMs) / r.tasks),
    overheadP50: round(overheads.length ? median(overheads) : 0),
    overheadP95: round(percentile(overheads, 95)),
    unattributedSteps: r.unattributed.steps,
    idleClaimMs: round(r.idle.ms / r.tasks),
  };
}

function figuresOf(row: VideoBenchRow): Figure[] {
  const at = `video ${row.provider} (${row.database})`;
  return [
    {
      name: `${at}: tasks per minute, ${TASKS} concurrent generations, ${row.slots} worker slots`,
      value: row.tasksPerMin,
      unit: 'tasks/min',
    },
    {
      name: `${at}: worker overhead per task, median (step time minus provider calls, result check, publish)`,
      value: row.overheadP50,
      unit: 'ms',
    },
    { name: `${at}: worker overhead per task, p95`, value: row.overheadP95, unit: 'ms' },
    { name: `${at}: provider calls per task (mean)`, value: row.providerMs, unit: 'ms' },
    {
      name: `${at}: result check + publish per task (mean)`,
      value: round(row.checkMs + row.publishMs),
      unit: 'ms',
    },
    { name: `${at}: tasks completed`, value: row.completed, unit: '' },
    { name: `${at}: tasks failed`, value: row.failed, unit: '' },
    {
      name: `${at}: refunds`,
      value: row.refunds,
      unit: '',
      goal: `= failed (${row.failed})`,
      met: row.refunds === row.failed,
    },
    {
      name: `${at}: prompts submitted twice`,
      value: row.duplicateSubmits,
      unit: '',
      goal: '0',
      met: row.duplicateSubmits === 0,
    },
  ];
}

/** Every fake on every database the bench has; a run that throws is a problem, not the end. */
export async function videoProvidersBench(): Promise<{
  rows: VideoBenchRow[];
  figures: Figure[];
  problems: string[];
  table: string;
}> {
  const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? null;
  const kinds: DatabaseKind[] = pgUrl ? ['pglite', 'postgres'] : ['pglite'];
  const rows: VideoBenchRow[] = [];
  const problems: string[] = [];
  for (const kind of kinds) {
    for (const start of FAKES) {
      const fake = await start();
      try {
        const result = await runProvider(fake, kind, pgUrl);
        rows.push(summarize(result));
        problems.push(...result.problems.map((p) => `${fake.provider} (${kind}): ${p}`));
      } catch (error) {
        problems.push(`${fake.provider} (${kind}): ${(error as Error).stack ?? String(error)}`);
      } finally {
        await fake.close();
      }
    }
  }
  return { rows, figures: rows.flatMap(figuresOf), problems, table: videoTable(rows) };
}

function videoTable(rows: VideoBenchRow[]): string {
  const injected = INJECTIONS.map(
    ([after, count, f]) =>
      `${count}× ${f.status}${'retryAfterSeconds' in f ? ` (Retry-After ${f.retryAfterSeconds} s)` : ''} after ${after} jobs`,
  ).join(', ');
  return [
    `${TASKS} generations submitted at once per provider (1 in 10 [policy], 1 in 10 [fail], 1 in 10 image mode); ` +
      `submit failures injected: ${injected}; ${POLLS_UNTIL_DONE} status checks per job, ${POLL_MS} ms apart.`,
    '',
    '| provider | db | slots | completed / failed | refunds | prompts submitted twice | 429 / 503 served | submits requeued | wall s | tasks/min | provider calls ms/task | result check ms/task | publish ms/task | worker overhead ms/task: mean / p50 / p95 | steps naming no task | empty claims ms/task |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.provider} | ${r.database} | ${r.slots} | ${r.completed} / ${r.failed} | ${r.refunds} | ${r.duplicateSubmits} | ${r.served429} / ${r.served503} | ${r.requeuedSubmits} | ${r.wallS} | ${r.tasksPerMin} | ${r.providerMs} | ${r.checkMs} | ${r.publishMs} | ${r.overheadMs} / ${r.overheadP50} / ${r.overheadP95} | ${r.unattributedSteps} | ${r.idleClaimMs} |`,
    ),
    '',
    "- submits requeued: submits refused even after the adapter's 3 tries; the task waited in our queue (15 s for a 5xx) and was submitted again.",
    '- wall s: from the first submit to the end of the worker step that finished the last task; tasks/min = finished (completed + failed) tasks per minute of it.',
    '- provider calls: time inside the adapter (HTTP to the fake, its retries and the 1 s Retry-After waits, the download), summed per task.',
    '- result check: our ffmpeg check of the downloaded video; publish: the move into the media store and the poster frame.',
    '- worker overhead: the wall time of every worker step of a task minus the three above: claiming and releasing it, its state and ledger writes, the first frame as JPEG. Mean over all steps; p50 and p95 over tasks.',
    '- steps naming no task: steps that made no provider call (their time is in the mean only). Empty claims: processNext calls that found nothing due, per task.',
  ].join('\n');
}
