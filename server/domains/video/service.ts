/**
 * Video generation: submit (VIDEO_COST credits and the task, which records what it was charged,
 * in one transaction), status, history, and the refund of failed tasks, exactly once and exactly
 * the charge (ledger source `refund:{taskId}`).
 */
import type { Db, DbOrTx } from '../../core/db.ts';
import {
  assertShallowOffset,
  boundedTotal,
  decodeCursor,
  keysetPage,
  MAX_OFFSET,
  totalCountLimit,
} from '../../core/cursor.ts';
import { notFound } from '../../core/errors.ts';
import type { StoredText, VideoTaskRow } from '../../db/schema.ts';
import type { HistoryItem, TaskStatusData } from '../../contracts/video.ts';
import { toOptionsData, type PriceTable } from '../../../shared/video-options.ts';
import { applyCreditChange } from '../credits/service.ts';
import { recordVideoEvent } from './api-view.ts';
import { deleteVideo } from './deletion.ts';
import type { VideoMedia } from './media.ts';
import { fromStored, TASK_MESSAGES } from './messages.ts';
import { createSubmit, taskOptions } from './submit.ts';
import * as healthRepo from './health-repository.ts';
import * as repo from './repository.ts';
import type { RouteEntry } from '../../config-video.ts';
import { defaultVideoLoss } from './providers/costs.ts';
import { PROVIDER_NAMES } from './providers/index.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

/** The local renderer, for other domains (site-build renders the sample clips with it). */
export * as localRenderer from './providers/local/public.ts';
/** For the privacy domain: closing an account deletes every video of it (issue 34). */
export { deleteUserVideos } from './deletion.ts';
export { assertCanAfford, reencodeUpload, type SubmitInput } from './submit.ts';
/** For the public API (domains/api): a video as /v1 answers it. */
export { toApiVideo } from './api-view.ts';

/** The English of a failure reason, for the refund's ledger description. */
const failedText = (reason: ((credits: number) => ApiText) | string, credits: number) =>
  typeof reason === 'string' ? reason : reason(credits).render('en');

/**
 * A message field of a task answer: the stored key rendered by the language hook before the
 * schema (which says text) serializes it.
 */
const taskText = (stored: StoredText | null, english: string | null) =>
  fromStored(stored, english) as string | null;

/** The options of a task as the API spells them, with its length, price and source. */
function optionFields(row: VideoTaskRow) {
  return {
    options: toOptionsData(taskOptions(row)),
    source_task_id: row.sourceTaskId,
    duration_seconds: row.durationSeconds,
    credits_charged: row.creditsCharged,
  };
}

export function toTaskStatus(row: VideoTaskRow): TaskStatusData {
  return {
    ...optionFields(row),
    id: row.id,
    status: row.status,
    status_message: taskText(row.statusText, row.statusMessage),
    progress: row.progress,
    result_url: row.resultUrl,
    poster_url: row.posterUrl,
    error_message: taskText(row.errorText, row.errorMessage),
    model: row.model,
    prompt: row.prompt,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toHistoryItem(row: VideoTaskRow): HistoryItem {
  return {
    ...optionFields(row),
    id: row.id,
    prompt: row.prompt,
    model: row.model,
    mode: row.mode,
    result_url: row.resultUrl ?? '',
    poster_url: row.posterUrl,
    created_at: row.createdAt.toISOString(),
    completed_at: (row.completedAt ?? row.updatedAt).toISOString(),
  };
}

/**
 * Fails an unfinished task and refunds its credits in one transaction. Safe to call any number
 * of times from any process: only the call that moves the task to failed refunds. The refund is
 * the task's credits_charged, never the current VIDEO_COST, so a price change between the charge
 * and the failure returns exactly what was taken. Returns the refunded amount, or false when
 * another call already failed the task.
 */
export async function failAndRefund(
  tx: DbOrTx,
  taskId: string,
  reason: ((credits: number) => ApiText) | string,
  facts: { failureKind?: string; providerError?: string } = {},
  /** The origin of the URLs in its webhook events (config.publicSiteUrl). */
  origin = '',
): Promise<{ refunded: number } | false> {
  const failed = await repo.failTask(tx, taskId, reason, facts);
  if (!failed) return false;
  await applyCreditChange(tx, {
    userId: failed.userId,
    amount: failed.creditsCharged,
    sourceType: 'refund',
    sourceId: taskId,
    description: `Refund: video generation failed (${failedText(reason, failed.creditsCharged).slice(0, 120)})`,
  });
  // Issue 36: the user's webhooks hear of both, from this transaction's outbox rows.
  await recordVideoEvent(tx, 'video.failed', failed, origin);
  await recordVideoEvent(tx, 'video.refunded', failed, origin);
  return { refunded: failed.creditsCharged };
}

export function createVideoService(deps: {
  db: Db;
  /** Uploads go to the media store, where any worker reads them; deletes empty it. */
  media: Pick<VideoMedia, 'saveUpload' | 'removeUpload' | 'store'>;
  /** Each mode's route: a request is sent only to entries that can make it (issue 35). */
  routes: Record<'text' | 'image', readonly RouteEntry[]>;
  deadlineMs: number;
  /** The price table; content/video-pricing.json unless a test prices otherwise. */
  prices?: PriceTable;
  /** VIDEO_MAX_COST_USD (null or absent: no cap). */
  maxCostUsd?: number | null;
}) {
  const { db } = deps;
  const submit = createSubmit(deps);

  return {
    ...submit,

    /** DELETE /api/video/{taskId}: the owner's finished video, from history and the store. */
    deleteVideo: (userId: string, taskId: string) =>
      deleteVideo(db, deps.media.store, userId, taskId),

    async status(userId: string, taskId: string): Promise<TaskStatusData> {
      const task = await repo.findTask(db, taskId);
      if (!task || task.userId !== userId || task.deletedAt)
        throw notFound(msg('video.task_not_found'), 'TASK_NOT_FOUND');
      const status = toTaskStatus(task);
      // Waiting for a provider (queue or rate limit): say where it stands in our queue.
      if (task.status === 'pending' && !task.providerJobId) {
        const position = await repo.queuePosition(db, task);
        // The answer's schema says text: the language hook renders it before serializing.
        status.status_message = (task.statusText?.key === TASK_MESSAGES.busy.key
          ? TASK_MESSAGES.busyQueuedAt(position)
          : TASK_MESSAGES.queuedAt(position)) as unknown as string;
      }
      return status;
    },

    /**
     * A numbered page of the user's completed videos (spec 7), with a bounded total: a page past
     * the first MAX_OFFSET videos is refused with a pointer to `cursor` (OFFSET skips rows one
     * by one), and `pages` counts only the pages an offset reaches.
     */
    async history(userId: string, page: number, limit: number) {
      const offset = (page - 1) * limit;
      assertShallowOffset(offset);
      const [rows, counted] = await Promise.all([
        repo.completedPage(db, userId, limit + 1, { offset }),
        repo.countCompleted(db, userId, totalCountLimit(limit)),
      ]);
      const { total, total_exact } = boundedTotal(counted, limit);
      const pages = Math.min(Math.max(1, Math.ceil(total / limit)), lastNumberedPage(limit));
      return { ...historyPage(rows, limit), total, total_exact, page, pages, limit };
    },

    /** The page after a `next_cursor`: constant time however deep (no total; see has_more). */
    async historyAfter(userId: string, cursor: string, limit: number) {
      const after = decodeCursor(cursor);
      const rows = await repo.completedPage(db, userId, limit + 1, { after });
      return { ...historyPage(rows, limit), limit };
    },
  };
}

/** The last page number whose offset is still served by `page` (later ones use `cursor`). */
export function lastNumberedPage(limit: number): number {
  return Math.floor(MAX_OFFSET / limit) + 1;
}

/** Rows fetched with `limit + 1` as history items and where the next page starts. */
function historyPage(rows: repo.HistoryRow[], limit: number) {
  const page = keysetPage(rows, limit, (row) => ({ ts: row.sortTs, id: row.id }));
  return {
    items: page.rows.map(toHistoryItem),
    next_cursor: page.next_cursor,
    has_more: page.has_more,
  };
}

export type VideoService = ReturnType<typeof createVideoService>;

/**
 * The admin view of the providers (issue 17, items 3 and 7): where each sits in the routes, its
 * breaker and rate-limit state and last error, and the last 24 hours of its tasks (success rate,
 * p50/p95 seconds from submit to a playable video).
 */
export async function providerOverview(
  db: DbOrTx,
  routes: { text: RouteEntry[]; image: RouteEntry[] },
) {
  const [rows, stats] = await Promise.all([
    healthRepo.allHealth(db),
    healthRepo.providerStats(db, 24),
  ]);
  const names = new Set([
    ...routes.text.map((e) => e.provider),
    ...routes.image.map((e) => e.provider),
    ...rows.map((r) => r.provider),
    ...stats.map((s) => s.provider),
  ]);
  const now = Date.now();
  const future = (d: Date | null) => (d && d.getTime() > now ? d.toISOString() : null);
  // Registered providers in PROVIDERS order, then any other name (a retired provider's rows).
  const rank = (name: string) => {
    const i = (PROVIDER_NAMES as readonly string[]).indexOf(name);
    return i < 0 ? PROVIDER_NAMES.length : i;
  };
  const ordered = [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return ordered.map((provider) => {
    const h = rows.find((r) => r.provider === provider);
    const s = stats.find((r) => r.provider === provider);
    const finished = (s?.succeeded ?? 0) + (s?.failed ?? 0);
    const round = (n: number | null | undefined) => (n == null ? null : Math.round(n * 10) / 10);
    return {
      provider,
      routes: (['text', 'image'] as const).flatMap((mode) =>
        routes[mode].flatMap((e, i) =>
          e.provider === provider ? [`${mode} #${i + 1}: ${e.model}`] : [],
        ),
      ),
      breakerOpenUntil: future(h?.openUntil ?? null),
      rateLimitedUntil: future(h?.rateLimitedUntil ?? null),
      consecutiveFailures: h?.consecutiveFailures ?? 0,
      lastError: h?.lastError ?? null,
      lastErrorAt: h?.lastErrorAt?.toISOString() ?? null,
      tasks24h: s?.tasks ?? 0,
      succeeded24h: s?.succeeded ?? 0,
      failed24h: s?.failed ?? 0,
      successRate: finished > 0 ? Math.round(((s?.succeeded ?? 0) / finished) * 1000) / 1000 : null,
      p50Seconds: round(s?.p50),
      p95Seconds: round(s?.p95),
      losses: (['text', 'image'] as const).flatMap((mode) =>
        routes[mode].flatMap((e, i) => {
          const loss = e.provider === provider ? defaultVideoLoss(e) : null;
          return loss ? [`${mode} #${i + 1}: ${e.model} ${loss}`] : [];
        }),
      ),
    };
  });
}
