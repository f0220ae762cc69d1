/**
 * A task with a provider job: one status check, then either the next check is scheduled (or
 * sooner, by a verified webhook), or the job's end is recorded. A finished job's video is copied
 * into our media store at once (Replicate deletes outputs within the hour) and checked (plays,
 * about 8 s, has sound) before the task succeeds; provider URLs never reach the user.
 */
import { recordVideoEvent } from './api-view.ts';
import { taskOptions } from './submit.ts';
import { rm } from 'node:fs/promises';
import type { VideoTaskRow } from '../../db/schema.ts';
import { TASK_MESSAGES } from './messages.ts';
import { taskCostUsd } from './providers/costs.ts';
import { isProviderError } from './providers/errors.ts';
import type { VideoProvider } from './providers/types.ts';
import * as repo from './repository.ts';
import { BadVideoError } from './result-check.ts';
import type { StepContext } from './worker-context.ts';

/** Progress shown: 3 % once accepted, up to 90 % while generating, then saving. */
const ACCEPTED = 3;
const GENERATED = 90;

export async function pollStep(
  ctx: StepContext,
  task: VideoTaskRow,
  signal: AbortSignal,
): Promise<void> {
  const { db, log } = ctx.opts;
  const jobId = task.providerJobId!;
  const provider = ctx.opts.providers[task.provider];
  const again = ctx.pollInterval(task.provider);
  if (!provider) {
    // Its provider left the configuration while the job ran: wait for it to come back (an
    // operator's fix); the deadline refunds the task otherwise.
    log.error({ taskId: task.id, provider: task.provider }, 'no adapter for a running job');
    return ctx.release(task, {
      status: 'processing',
      message: TASK_MESSAGES.generating,
      waitMs: 60_000,
    });
  }
  let state;
  try {
    state = await provider.poll(jobId, signal);
  } catch (err) {
    if (!isProviderError(err)) throw err;
    if (err.retryable) {
      log.warn({ taskId: task.id, err: err.detail }, 'video status check failed; retrying');
      return ctx.release(task, {
        status: 'processing',
        message: TASK_MESSAGES.generating,
        waitMs: err.retryAfterMs ?? again * 2,
      });
    }
    return ctx.fail(
      task,
      err.kind === 'content_policy' ? 'content_policy' : 'provider',
      err.detail,
    );
  }

  if (state.state === 'queued' || state.state === 'running') {
    const started = (task.submittedAt ?? task.createdAt).getTime();
    const expected = ctx.opts.expectedMs ?? 5 * 60_000;
    const fraction =
      state.state === 'queued'
        ? 0
        : (state.progress ?? Math.min(0.9, (Date.now() - started) / expected));
    return ctx.release(task, {
      status: 'processing',
      message:
        state.state === 'queued'
          ? TASK_MESSAGES.providerQueue(state.position)
          : TASK_MESSAGES.generating,
      waitMs: again,
      progress: ACCEPTED + fraction * (GENERATED - ACCEPTED),
    });
  }
  // What the job cost (issue 37, item 4): the provider's own figure when it reports one, else
  // content/provider-costs.json (0 for a failed job at a provider that bills only videos made).
  const options = taskOptions(task);
  if (state.state === 'failed') {
    const costUsd = taskCostUsd(task, options, false);
    await repo.recordProviderFinished(db, task.id, { error: state.detail, costUsd });
    return ctx.fail(task, state.kind, state.detail);
  }
  await repo.recordProviderFinished(db, task.id, {
    costUsd: state.costUsd ?? taskCostUsd(task, options, true),
  });
  return saveResult(ctx, task, provider, signal);
}

async function saveResult(
  ctx: StepContext,
  task: VideoTaskRow,
  provider: VideoProvider,
  signal: AbortSignal,
): Promise<void> {
  const { db, log, media } = ctx.opts;
  await repo.updateProgress(db, task.id, ctx.owner, {
    progress: 92,
    statusMessage: TASK_MESSAGES.saving,
  });
  const tmp = await media.tempPath('.mp4');
  try {
    try {
      await provider.download(task.providerJobId!, tmp, signal);
      // The shape, resolution and length the task asked for (issue 35), and nothing else.
      const { aspectRatio, resolution } = taskOptions(task);
      await ctx.checkResult(
        tmp,
        { aspectRatio, resolution, seconds: task.durationSeconds },
        signal,
      );
    } catch (err) {
      if (err instanceof BadVideoError) {
        log.warn({ taskId: task.id, problem: err.message }, 'provider video failed our check');
        return await ctx.fail(task, 'result', `result check: ${err.message}`);
      }
      if (!isProviderError(err)) throw err;
      if (err.retryable) {
        return await ctx.release(task, {
          status: 'processing',
          message: TASK_MESSAGES.saving,
          waitMs: err.retryAfterMs ?? ctx.pollInterval(task.provider),
        });
      }
      return await ctx.fail(task, 'provider', `download: ${err.detail}`);
    }
    const result = await media.publish(tmp);
    const completed = await db.transaction(async (tx) => {
      const row = await repo.completeTask(tx, task.id, ctx.owner, result);
      // Issue 36: the completion and its webhook event commit together.
      if (row) await recordVideoEvent(tx, 'video.completed', row, ctx.opts.publicOrigin ?? '');
      return row;
    });
    if (completed) {
      log.info({ taskId: task.id, result: result.resultUrl }, 'video task completed');
      ctx.opts.metrics?.onFinished(task, 'completed');
    }
  } finally {
    await rm(tmp, { force: true });
  }
  await ctx.removeUpload(task);
}
