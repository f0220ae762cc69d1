/**
 * A task's submit (issue 17, items 3 and 4): the mode's route is tried in order, and the next
 * entry only while no provider accepted the job (refused connection, 5xx, 429, other refusals
 * after the adapter's own retries). Never after one accepted it, and never after a content-policy
 * refusal or a submit whose answer was lost: either could generate, and bill, twice. A provider
 * whose breaker is open, or whose Retry-After has not passed, is skipped. When no provider could
 * take the job, the task waits in the queue (status `pending`, position shown) until the soonest
 * of those times; its deadline alone refunds it.
 */
import type { RouteAttempt, VideoProviderHealthRow, VideoTaskRow } from '../../db/schema.ts';
import * as health from './health-repository.ts';
import { TASK_MESSAGES } from './messages.ts';
import { isProviderError, VideoProviderError } from './providers/errors.ts';
import type { JobImage, VideoJobInput, VideoProvider } from './providers/types.ts';
import { LAST_FRAME_PART, referencePart } from './media.ts';
import { capableEntries } from './options.ts';
import { cheapestFirst, videoCostUsd, withinCostCap } from './providers/costs.ts';
import { taskOptions } from './submit.ts';
import * as repo from './repository.ts';
import type { StepContext } from './worker-context.ts';

/** A 429 that named no wait: this long before the provider is tried again. */
const DEFAULT_RATE_LIMIT_MS = 30_000;
/** Every provider busy and none said for how long: the next round after this. */
const DEFAULT_BUSY_MS = 15_000;

/** An upload as providers take it: the stored PNG, or a JPEG for remote ones (smaller). */
async function upload(ctx: StepContext, name: string, provider: string): Promise<JobImage> {
  const png = await ctx.opts.media.readUpload(name);
  if (provider === 'local') return { data: png, mimeType: 'image/png' };
  // Imported here, not at start-up: only an image task for a hosted provider needs sharp.
  const { default: sharp } = await import('sharp');
  return { data: await sharp(png).jpeg({ quality: 90 }).toBuffer(), mimeType: 'image/jpeg' };
}

/** The images a task sends (first frame, end frame, reference images), for one kind of provider. */
async function taskImages(ctx: StepContext, task: VideoTaskRow, provider: string) {
  const options = taskOptions(task);
  const [image, lastFrame, ...referenceImages] = await Promise.all([
    task.mode === 'image' && task.inputImage ? upload(ctx, task.inputImage, provider) : undefined,
    options.lastFrame ? upload(ctx, `${task.id}${LAST_FRAME_PART}.png`, provider) : undefined,
    ...Array.from({ length: options.referenceImages }, (_, i) =>
      upload(ctx, `${task.id}${referencePart(i)}.png`, provider),
    ),
  ]);
  return {
    ...(image ? { image } : {}),
    ...(lastFrame ? { lastFrame } : {}),
    ...(referenceImages.length > 0 ? { referenceImages: referenceImages as JobImage[] } : {}),
  };
}

/** The video an extension continues, or null when it is gone (deleted since the submit). */
async function sourceVideo(
  ctx: StepContext,
  task: VideoTaskRow,
): Promise<VideoJobInput['sourceVideo'] | null> {
  const source = task.sourceTaskId ? await repo.findTask(ctx.opts.db, task.sourceTaskId) : null;
  if (!source?.resultUrl || source.deletedAt) return null;
  return {
    data: await ctx.opts.media.readResult(source.resultUrl),
    mimeType: 'video/mp4',
    durationSeconds: source.durationSeconds,
  };
}

function webhookUrl(ctx: StepContext, provider: VideoProvider): string | undefined {
  const base = ctx.opts.webhookBase;
  if (!base || !provider.verifyWebhook) return undefined;
  return `${base}/api/video/webhooks/${provider.name}`;
}

/** Why an entry was passed over without a call, or null when it may be tried now. */
function skipReason(
  row: VideoProviderHealthRow | undefined,
): { outcome: string; waitMs: number } | null {
  const now = Date.now();
  if (row?.openUntil && row.openUntil.getTime() > now) {
    return { outcome: 'skipped: breaker open', waitMs: row.openUntil.getTime() - now };
  }
  if (row?.rateLimitedUntil && row.rateLimitedUntil.getTime() > now) {
    return { outcome: 'skipped: rate limited', waitMs: row.rateLimitedUntil.getTime() - now };
  }
  return null;
}

/**
 * The capable entries as VIDEO_ROUTE_POLICY and VIDEO_MAX_COST_USD want them (issue 37, item 6):
 * those within the cap, cheapest first under `cheapest` (equal costs: the provider with the
 * lower p95 over the last hour first), else as written. Only the order changes: failover below
 * still stops at the first provider that accepts.
 */
async function costOrder<E extends { provider: string; model: string }>(
  ctx: StepContext,
  capable: E[],
  task: VideoTaskRow,
): Promise<E[]> {
  const routing = ctx.opts.routing ?? { policy: 'ordered', maxCostUsd: null };
  const options = taskOptions(task);
  const seconds = task.durationSeconds;
  const within = withinCostCap(capable, options, seconds, routing.maxCostUsd);
  if (within.length === 0 && capable.length > 0) {
    ctx.opts.log.warn({ taskId: task.id }, 'no capable route entry within VIDEO_MAX_COST_USD');
  }
  if (routing.policy !== 'cheapest' || within.length < 2) return within;
  // The last hour's p95 times only matter, and are only read, when two entries cost the same.
  const costs = within.map((e) => videoCostUsd(e, options, seconds));
  const tied = new Set(costs).size < costs.length;
  const stats = tied ? await health.providerStats(ctx.opts.db, 1) : [];
  return cheapestFirst(within, options, seconds, new Map(stats.map((s) => [s.provider, s.p95])));
}

export async function submitStep(
  ctx: StepContext,
  task: VideoTaskRow,
  signal: AbortSignal,
): Promise<void> {
  const { db, log } = ctx.opts;
  if (task.submitStartedAt) {
    // A worker sent a submit and stopped before recording the answer: the provider may have
    // accepted it. Sending another could generate and bill twice, so the task ends here.
    return ctx.fail(
      task,
      'in_doubt',
      `a submit to ${task.provider} at ${task.submitStartedAt.toISOString()} got no recorded answer`,
    );
  }
  const options = taskOptions(task);
  // Only the entries whose model can make this video (issue 35): the submit checked there was one.
  let extended: VideoJobInput['sourceVideo'] | undefined;
  if (options.extend) {
    const video = await sourceVideo(ctx, task);
    if (!video) return ctx.fail(task, 'unavailable', 'the video to extend was deleted');
    extended = video;
  }
  const route = await costOrder(
    ctx,
    capableEntries(ctx.opts.routes[task.mode], task.mode, options, extended?.durationSeconds),
    task,
  );
  const rows = await health.healthOf(db, [...new Set(route.map((e) => e.provider))]);
  const breaker = ctx.opts.breaker ?? { failures: 5, openMs: 120_000 };
  let soonest: number | null = null;
  let mayRetry = false;
  const problems: string[] = [];
  const wait = (ms: number) => {
    mayRetry = true;
    soonest = soonest === null ? ms : Math.min(soonest, ms);
  };

  // The images, read (and re-encoded for remote providers) once per step, not per entry.
  const frames = new Map<boolean, ReturnType<typeof taskImages>>();
  const imagesFor = (provider: string) => {
    const local = provider === 'local';
    if (!frames.has(local)) frames.set(local, taskImages(ctx, task, provider));
    return frames.get(local)!;
  };

  for (const entry of route) {
    const provider = ctx.opts.providers[entry.provider];
    if (!provider) throw new Error(`no adapter for route provider ${entry.provider}`);
    const skip = skipReason(rows.get(entry.provider));
    if (skip) {
      wait(skip.waitMs);
      problems.push(`${entry.provider}: ${skip.outcome}`);
      continue;
    }
    const attempt = (outcome: string, status?: number | null): RouteAttempt => ({
      provider: entry.provider,
      model: entry.model,
      at: new Date().toISOString(),
      outcome,
      ...(status === undefined ? {} : { status }),
    });
    const images = await imagesFor(entry.provider);
    const hook = webhookUrl(ctx, provider);
    if (!(await repo.markSubmitStarted(db, task.id, ctx.owner))) throw new Error('lease lost');
    let jobId: string;
    try {
      jobId = await provider.submit(
        {
          prompt: task.prompt,
          mode: task.mode,
          model: entry.model,
          taskId: task.id,
          deadlineAt: task.deadlineAt,
          options,
          ...images,
          ...(extended ? { sourceVideo: extended } : {}),
          ...(hook ? { webhookUrl: hook } : {}),
        },
        signal,
      );
    } catch (err) {
      // Anything that is not the provider's answer (an abort, a bug) may have come after the
      // request left: treated as in doubt, like a lost answer.
      const error = isProviderError(err)
        ? err
        : new VideoProviderError(`submit failed: ${(err as Error).message}`, {
            kind: 'in_doubt',
            cause: err,
          });
      await repo.recordSubmit(db, task.id, attempt(error.kind, error.status));
      log.warn(
        {
          taskId: task.id,
          provider: entry.provider,
          model: entry.model,
          kind: error.kind,
          err: error.detail,
        },
        'video submit not accepted',
      );
      problems.push(`${entry.provider}: ${error.detail}`);
      if (error.kind === 'content_policy') return ctx.fail(task, 'content_policy', error.detail);
      if (error.kind === 'in_doubt') return ctx.fail(task, 'in_doubt', error.detail);
      if (error.kind === 'rate_limited') {
        const ms = error.retryAfterMs ?? DEFAULT_RATE_LIMIT_MS;
        await health.recordRateLimit(db, entry.provider, error.detail, ms);
        wait(ms);
        continue;
      }
      const open = await health.recordFailure(db, entry.provider, error.detail, {
        threshold: breaker.failures,
        openMs: breaker.openMs,
      });
      if (open) log.warn({ provider: entry.provider }, 'video provider breaker open');
      if (error.kind === 'unavailable') wait(error.retryAfterMs ?? DEFAULT_BUSY_MS);
      continue;
    }
    await repo.recordSubmit(db, task.id, attempt('accepted'), {
      jobId,
      requestId: provider.requestIdOf(jobId),
    });
    await health.recordAccepted(db, entry.provider);
    log.info(
      { taskId: task.id, provider: entry.provider, model: entry.model, jobId },
      'video job accepted',
    );
    return ctx.release(task, {
      status: 'processing',
      message: TASK_MESSAGES.generating,
      waitMs: ctx.pollInterval(entry.provider),
      progress: 3,
    });
  }

  // Nobody took it. Refusals only (bad key, bad request everywhere): fail now, refunded.
  if (!mayRetry) return ctx.fail(task, 'unavailable', problems.join('; '));
  const untilDeadline = task.deadlineAt.getTime() - Date.now();
  return ctx.release(task, {
    status: 'pending',
    message: TASK_MESSAGES.busy,
    waitMs: Math.max(250, Math.min(soonest ?? DEFAULT_BUSY_MS, untilDeadline + 1000)),
  });
}
