/**
 * Where a video worker's time goes, step by step (bench section `video`, video-providers.ts).
 *
 * The bench drives the real worker's `processNext` from its own loops (as `start()` would, with
 * the same number of slots) so each step can be timed. Every step runs inside an
 * AsyncLocalStorage record; the wrapped adapters, result check and media store add the time
 * spent in them to the record of the step that called them, which stays right with several steps
 * in flight at once. What is left of a step's wall time is the worker's own work: claiming and
 * releasing the task, its state and ledger writes, the first frame's JPEG, lease renewals.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { VideoMedia } from '../../server/domains/video/media.ts';
import { checkVideo, type ExpectedVideo } from '../../server/domains/video/result-check.ts';
import type { VideoProvider } from '../../server/domains/video/providers/types.ts';
import { sleep } from '../helpers/process.ts';

/** One step that had a due task (processNext returned true). */
export interface StepRecord {
  /** The task, once a provider call names it (steps with no provider call stay null). */
  taskId: string | null;
  wallMs: number;
  /** Inside the adapter: HTTP to the provider, its retries and Retry-After waits, the download. */
  providerMs: number;
  /** Our result check (ffmpeg decodes the whole video). */
  checkMs: number;
  /** media.publish: the move into the store and the poster frame (ffmpeg). */
  publishMs: number;
}

type Part = 'providerMs' | 'checkMs' | 'publishMs';
const ADAPTER_CALLS = new Set(['submit', 'poll', 'download', 'cancel']);

export function createStepTimer() {
  const current = new AsyncLocalStorage<StepRecord>();
  const steps: StepRecord[] = [];
  /** Job id → task id, learnt from submits, so polls and downloads name their task too. */
  const taskOfJob = new Map<string, string>();
  /** Calls of processNext that found no due task, and their time (the queue's own polling). */
  const idle = { claims: 0, ms: 0 };
  /** Submits inside the adapter right now (some may be between retries). */
  let submitsInFlight = 0;

  async function timed<T>(part: Part, run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await run();
    } finally {
      const step = current.getStore();
      if (step) step[part] += performance.now() - started;
    }
  }

  const nameTask = (taskId: string | undefined) => {
    const step = current.getStore();
    if (step && taskId) step.taskId = taskId;
  };

  /** The adapter with its four calls timed; everything else (name, requestIdOf, webhooks) as is. */
  function provider(adapter: VideoProvider): VideoProvider {
    return new Proxy(adapter, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (typeof value !== 'function') return value;
        const call = value as (...args: unknown[]) => unknown;
        if (typeof key !== 'string' || !ADAPTER_CALLS.has(key)) return call.bind(target);
        return async (...args: unknown[]) => {
          if (key === 'submit') {
            const taskId = (args[0] as { taskId: string }).taskId;
            nameTask(taskId);
            submitsInFlight += 1;
            try {
              const jobId = (await timed('providerMs', async () =>
                call.apply(target, args),
              )) as string;
              taskOfJob.set(jobId, taskId);
              return jobId;
            } finally {
              submitsInFlight -= 1;
            }
          }
          nameTask(taskOfJob.get(args[0] as string));
          return timed('providerMs', async () => call.apply(target, args));
        };
      },
    });
  }

  const media = (store: VideoMedia): VideoMedia => ({
    ...store,
    publish: (file) => timed('publishMs', () => store.publish(file)),
  });

  const checkResult = (file: string, expected: ExpectedVideo, signal?: AbortSignal) =>
    timed('checkMs', () => checkVideo(file, expected, signal));

  /**
   * `slots` loops calling `processNext` (the worker's own loop, timed) until `finished()` says
   * the queue is done; a loop that finds nothing due sleeps `idleMs`. Resolves with the end of
   * the last step that had a task (when the last task was finished).
   */
  async function drive(
    worker: { processNext(): Promise<boolean> },
    opts: {
      slots: number;
      idleMs: number;
      timeoutMs: number;
      finished: () => Promise<boolean>;
      onError: (error: unknown) => void;
    },
  ): Promise<number> {
    const end = Date.now() + opts.timeoutMs;
    let lastStepEnd = performance.now();
    let done = false;
    const loop = async () => {
      while (!done) {
        if (Date.now() > end) throw new Error(`the queue did not drain in ${opts.timeoutMs} ms`);
        const step: StepRecord = {
          taskId: null,
          wallMs: 0,
          providerMs: 0,
          checkMs: 0,
          publishMs: 0,
        };
        const started = performance.now();
        let worked = false;
        try {
          worked = await current.run(step, () => worker.processNext());
        } catch (error) {
          // The worker's own loop logs this and goes on; here it is a finding.
          opts.onError(error);
        }
        step.wallMs = performance.now() - started;
        if (worked) {
          steps.push(step);
          lastStepEnd = performance.now();
          continue;
        }
        idle.claims += 1;
        idle.ms += step.wallMs;
        if (await opts.finished()) done = true;
        else await sleep(opts.idleMs);
      }
    };
    try {
      await Promise.all(Array.from({ length: opts.slots }, loop));
    } finally {
      done = true;
    }
    return lastStepEnd;
  }

  return {
    provider,
    media,
    checkResult,
    drive,
    steps,
    idle,
    submitsInFlight: () => submitsInFlight,
  };
}

export interface TaskTiming {
  steps: number;
  wallMs: number;
  providerMs: number;
  checkMs: number;
  publishMs: number;
  /** wallMs minus the three parts above: the worker's own time for this task. */
  overheadMs: number;
}

/** The steps summed per task; steps that named no task are summed under `unattributed`. */
export function perTask(steps: StepRecord[]) {
  const tasks = new Map<string, TaskTiming>();
  const unattributed: TaskTiming = {
    steps: 0,
    wallMs: 0,
    providerMs: 0,
    checkMs: 0,
    publishMs: 0,
    overheadMs: 0,
  };
  for (const s of steps) {
    let sum = s.taskId ? tasks.get(s.taskId) : unattributed;
    if (!sum) {
      sum = { steps: 0, wallMs: 0, providerMs: 0, checkMs: 0, publishMs: 0, overheadMs: 0 };
      tasks.set(s.taskId!, sum);
    }
    sum.steps += 1;
    sum.wallMs += s.wallMs;
    sum.providerMs += s.providerMs;
    sum.checkMs += s.checkMs;
    sum.publishMs += s.publishMs;
    sum.overheadMs += s.wallMs - s.providerMs - s.checkMs - s.publishMs;
  }
  return { tasks, unattributed };
}

/** The value below which `p` % of `values` fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
