/**
 * The video worker: claims tasks (FOR UPDATE SKIP LOCKED, with a lease renewed while working),
 * drives the provider (submit → poll → download), copies the result into the media store and
 * completes the task. A failure, or a task past its deadline, is failed and refunded once.
 * A crashed worker's lease expires and the task is reclaimed and resumed from its provider job.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import type { Db } from '../../core/db.ts';
import type { VideoTaskRow } from '../../db/schema.ts';
import { VIDEO_COST } from '../../../shared/video.ts';
import type { MediaStore } from './media.ts';
import type { VideoProvider } from './providers/types.ts';
import * as repo from './repository.ts';
import { failAndRefund } from './service.ts';

interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface WorkerOptions {
  db: Db;
  provider: VideoProvider;
  media: MediaStore;
  uploadsDir: string;
  log: Logger;
  /** Tasks worked on at once by this process. */
  concurrency?: number;
  leaseMs?: number;
  /** Pause between two status checks of one job. */
  pollIntervalMs?: number;
  /** Pause when the queue is empty. */
  idleMs?: number;
  maxAttempts?: number;
  /** How long a provider job is expected to take, for the progress bar when it reports none. */
  expectedMs?: number;
}

const refunded = `Your ${VIDEO_COST} credits have been refunded.`;
export const DEADLINE_MESSAGE = `Video generation did not finish in time and was stopped. ${refunded}`;

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
  const pollIntervalMs = opts.pollIntervalMs ?? 3000;
  const idleMs = opts.idleMs ?? 500;
  const maxAttempts = opts.maxAttempts ?? 3;
  const expectedMs = opts.expectedMs ?? 5 * 60_000;
  const { db, provider, media, log } = opts;
  const stopping = new AbortController();
  const loops: Promise<void>[] = [];
  let lastSweep = 0;

  async function fail(task: VideoTaskRow, reason: string) {
    const done = await db.transaction((tx) => failAndRefund(tx, task.id, reason));
    if (done) log.info({ taskId: task.id, reason }, 'video task failed and refunded');
    if (task.inputImage) await rm(path.join(opts.uploadsDir, task.inputImage), { force: true });
  }

  async function sweepOverdue() {
    if (Date.now() - lastSweep < 10_000) return;
    lastSweep = Date.now();
    for (const id of await repo.overdueTaskIds(db)) {
      const task = await repo.findTask(db, id);
      if (task) await fail(task, DEADLINE_MESSAGE);
    }
  }

  async function work(task: VideoTaskRow): Promise<void> {
    const lost = new AbortController();
    const signal = AbortSignal.any([lost.signal, stopping.signal]);
    const renew = setInterval(() => {
      repo.renewLease(db, task.id, owner, leaseMs).then(
        (held) => held || lost.abort(),
        () => {}, // a database hiccup: the next renewal tries again before the lease runs out
      );
    }, leaseMs / 3);
    const progress = (value: number, statusMessage: string, providerJobId?: string) =>
      repo.updateProgress(db, task.id, owner, {
        progress: Math.max(0, Math.min(99, Math.round(value))),
        statusMessage,
        ...(providerJobId ? { providerJobId } : {}),
      });
    try {
      if (task.deadlineAt.getTime() < Date.now()) return await fail(task, DEADLINE_MESSAGE);
      if (task.attempts > maxAttempts) {
        return await fail(
          task,
          `Video generation failed after ${maxAttempts} attempts. ${refunded}`,
        );
      }
      let jobId = task.providerJobId;
      if (!jobId) {
        const image =
          task.mode === 'image' && task.inputImage
            ? {
                data: await readFile(path.join(opts.uploadsDir, task.inputImage)),
                mimeType: 'image/png',
              }
            : undefined;
        jobId = await provider.submit(
          { prompt: task.prompt, mode: task.mode, model: task.model, ...(image ? { image } : {}) },
          signal,
        );
        await progress(3, 'Generating video', jobId);
      }
      const started = Date.now();
      for (;;) {
        if (signal.aborted) throw signal.reason ?? new Error('aborted');
        if (task.deadlineAt.getTime() < Date.now()) return await fail(task, DEADLINE_MESSAGE);
        const state = await provider.poll(jobId, signal);
        if (state.state === 'failed') return await fail(task, `${state.reason} ${refunded}`);
        if (state.state === 'succeeded') break;
        const fraction = state.progress ?? Math.min(0.9, (Date.now() - started) / expectedMs);
        await progress(3 + fraction * 87, 'Generating video');
        await sleep(pollIntervalMs, signal);
      }
      await progress(92, 'Saving video');
      const tmp = await media.tempPath('.mp4');
      try {
        await provider.download(jobId, tmp, signal);
        const result = await media.publish(tmp);
        if (await repo.completeTask(db, task.id, owner, result)) {
          log.info({ taskId: task.id, result: result.resultUrl }, 'video task completed');
        }
      } finally {
        await rm(tmp, { force: true });
      }
      if (task.inputImage) await rm(path.join(opts.uploadsDir, task.inputImage), { force: true });
    } catch (error) {
      if (lost.signal.aborted) {
        log.warn({ taskId: task.id }, 'lease lost; another worker has the task');
      } else if (stopping.signal.aborted) {
        await repo.releaseTask(db, task.id, owner, 'Resuming shortly');
      } else {
        const retryable = (error as { retryable?: boolean }).retryable !== false;
        log.error(
          { err: error, taskId: task.id, attempt: task.attempts },
          'video task attempt failed',
        );
        if (retryable && task.attempts < maxAttempts) {
          await repo.releaseTask(db, task.id, owner, 'Retrying after a temporary problem');
        } else {
          await fail(
            task,
            `${(error as Error).message || 'The video provider failed.'} ${refunded}`,
          );
        }
      }
    } finally {
      clearInterval(renew);
    }
  }

  /** Claims and finishes one task; false when the queue had none. */
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

export type VideoWorker = ReturnType<typeof createVideoWorker>;
