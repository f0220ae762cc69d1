/**
 * The video worker. It claims a due task (FOR UPDATE SKIP LOCKED, under a lease renewed while it
 * works), takes one step with it, and hands it back with the time of its next step:
 * - no provider job yet: submit along the mode's route (submit-step.ts), failing over only while
 *   no provider accepted the job;
 * - a job: one status check (poll-step.ts); when the provider is done, the result is copied into
 *   the media store and checked before the task succeeds.
 * Tasks wait in the database between steps, so one process drives many jobs at once and a
 * crashed worker's tasks are resumed by any other. A task past its deadline is cancelled at its
 * provider and refunded exactly once (ledger source `refund:{taskId}`).
 */
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { VideoTaskRow } from '../../db/schema.ts';
import { failureMessage, TASK_MESSAGES } from './messages.ts';
import { pollStep } from './poll-step.ts';
import * as repo from './repository.ts';
import { checkVideo } from './result-check.ts';
import { taskUploads } from './media.ts';
import { failAndRefund } from './service.ts';
import { submitStep } from './submit-step.ts';
import type { StepContext, WorkerOptions } from './worker-context.ts';

export type { Logger, WorkerOptions } from './worker-context.ts';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

export function createVideoWorker(opts: WorkerOptions) {
  const owner = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const leaseMs = opts.leaseMs ?? 30_000;
  const idleMs = opts.idleMs ?? 500;
  const { db, log } = opts;
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  let lastSweep = 0;

  const removeUpload = async (task: VideoTaskRow) => {
    // The task is settled whatever happens here; a leftover upload costs only storage.
    for (const name of taskUploads(task)) {
      await opts.media.removeUpload(name).catch((err: unknown) => {
        log.warn({ err, taskId: task.id }, 'could not remove a task image from the media store');
      });
    }
  };

  const ctx: StepContext = {
    opts,
    owner,
    pollInterval: (provider) =>
      typeof opts.pollIntervalMs === 'function'
        ? opts.pollIntervalMs(provider)
        : (opts.pollIntervalMs ?? 5000),
    async fail(task, kind, providerError) {
      const done = await db.transaction((tx) =>
        failAndRefund(
          tx,
          task.id,
          failureMessage(kind),
          { failureKind: kind, ...(providerError ? { providerError } : {}) },
          opts.publicOrigin,
        ),
      );
      if (done) {
        log.info(
          { taskId: task.id, kind, providerError, refunded: done.refunded },
          'video task failed and refunded',
        );
        opts.metrics?.onFinished(task, 'failed', kind);
      }
      await removeUpload(task);
    },
    release: (task, next) => repo.releaseTask(db, task.id, owner, next),
    checkResult: opts.checkResult ?? checkVideo,
    removeUpload,
  };

  /** Past its deadline: stop the job at the provider where the API allows it, then refund once. */
  async function expire(task: VideoTaskRow) {
    const provider = opts.providers[task.provider];
    if (task.providerJobId && provider) {
      try {
        await provider.cancel(task.providerJobId, AbortSignal.timeout(30_000));
      } catch (err) {
        log.warn({ err, taskId: task.id }, 'cancelling an overdue job at its provider failed');
      }
    }
    await ctx.fail(task, 'deadline');
  }

  async function sweepOverdue() {
    if (Date.now() - lastSweep < 10_000) return;
    lastSweep = Date.now();
    for (const id of await repo.overdueTaskIds(db)) {
      const task = await repo.findTask(db, id);
      if (task) await expire(task);
    }
  }

  async function work(task: VideoTaskRow): Promise<void> {
    const lost = new AbortController();
    const renew = setInterval(() => {
      repo.renewLease(db, task.id, owner, leaseMs).then(
        (held) => held || lost.abort(),
        () => {}, // a database hiccup: the next renewal tries again before the lease runs out
      );
    }, leaseMs / 3);
    const signal = AbortSignal.any([lost.signal, stopping.signal]);
    try {
      if (task.deadlineAt.getTime() < Date.now()) return await expire(task);
      // A submit is never cut short by a shutdown (its answer must be recorded): only by a lost lease.
      if (!task.providerJobId) return await submitStep(ctx, task, lost.signal);
      return await pollStep(ctx, task, signal);
    } catch (error) {
      if (lost.signal.aborted) {
        log.warn({ taskId: task.id }, 'lease lost; another worker has the task');
      } else if (stopping.signal.aborted) {
        await ctx.release(task, {
          status: task.providerJobId ? 'processing' : 'pending',
          message: TASK_MESSAGES.resuming,
          waitMs: 0,
        });
      } else {
        // Our own trouble (database, disk): try the step again shortly; the deadline bounds it.
        log.error({ err: error, taskId: task.id }, 'video task step failed');
        await ctx.release(task, {
          status: task.providerJobId ? 'processing' : 'pending',
          message: TASK_MESSAGES.retrying,
          waitMs: 5000,
        });
      }
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims one due task and takes its next step; false when no task was due. */
  async function processNext(): Promise<boolean> {
    await sweepOverdue();
    const task = await repo.claimTask(db, owner, leaseMs);
    if (!task) return false;
    await work(task);
    return true;
  }

  async function loop() {
    while (!stopping.signal.aborted) {
      try {
        if (!(await processNext())) await sleep(idleMs, stopping.signal);
      } catch (error) {
        log.error({ err: error }, 'video worker loop error');
        await sleep(idleMs * 4, stopping.signal);
      }
    }
  }

  return {
    owner,
    processNext,
    start() {
      for (let i = 0; i < (opts.concurrency ?? 2); i++) loops.push(loop());
      log.info({ owner, concurrency: opts.concurrency ?? 2 }, 'video worker started');
    },
    /** Stops claiming, hands unfinished tasks back to the queue, and waits for the loops. */
    async stop() {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
