/**
 * Video generation: submit (VIDEO_COST credits and the task, which records what it was charged,
 * in one transaction), status, history, and the refund of failed tasks, exactly once and exactly
 * the charge (ledger source `refund:{taskId}`).
 */
import { randomUUID } from 'node:crypto';
import type { Db, DbOrTx } from '../../core/db.ts';
import {
  assertShallowOffset,
  boundedTotal,
  decodeCursor,
  keysetPage,
  MAX_OFFSET,
  totalCountLimit,
} from '../../core/cursor.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.ts';
import { checkImage, reencodeImage } from '../../core/images.ts';
import type { StoredText, UserRow, VideoTaskRow } from '../../db/schema.ts';
import type { HistoryItem, TaskStatusData } from '../../contracts/video.ts';
import {
  IMAGE_MODEL,
  MAX_IMAGE_BYTES,
  MAX_PROMPT_LENGTH,
  MAX_UNFINISHED_TASKS,
  MODELS,
  MODEL_NAMES,
  VIDEO_COST,
} from '../../../shared/video.ts';
import {
  InsufficientCreditsError,
  applyCreditChange,
  lockUserCredits,
} from '../credits/service.ts';
import { deleteVideo } from './deletion.ts';
import type { VideoMedia } from './media.ts';
import { fromStored, storedText, TASK_MESSAGES } from './messages.ts';
import * as healthRepo from './health-repository.ts';
import * as repo from './repository.ts';
import type { RouteEntry } from '../../config-video.ts';
import { PROVIDER_NAMES } from './providers/index.ts';
import { type ApiText, msg } from '../../core/api-messages.ts';

/** The local renderer, for other domains (site-build renders the sample clips with it). */
export * as localRenderer from './providers/local/public.ts';
/** For the privacy domain: closing an account deletes every video of it (issue 34). */
export { deleteUserVideos } from './deletion.ts';

/**
 * Validates an upload by magic bytes and size and re-encodes it as PNG (first frame, EXIF dropped,
 * at most 1920 px) so nothing the user sent reaches the renderer or the provider unchecked.
 */
export async function reencodeUpload(bytes: Buffer): Promise<Buffer> {
  const type = checkImage(bytes, MAX_IMAGE_BYTES);
  return reencodeImage(bytes, type, { maxSide: 1920, as: 'png' });
}

/**
 * Refuses a user whose balance cannot pay for a video, with the spec's text, before anything
 * costly (reading or decoding the upload). The charge itself is checked again, under a lock, in
 * the submit transaction: this only spares the work.
 */
export function assertCanAfford(user: UserRow, model: string, cost = VIDEO_COST): void {
  if (user.credits >= cost) return;
  const name = MODEL_NAMES[model] ?? model;
  throw new AppError(
    402,
    'INSUFFICIENT_CREDITS',
    msg('video.not_enough_credits', { model: name, cost, balance: user.credits }),
  );
}

/** The English of a failure reason, for the refund's ledger description. */
const failedText = (reason: ((credits: number) => ApiText) | string, credits: number) =>
  typeof reason === 'string' ? reason : reason(credits).render('en');

/**
 * A message field of a task answer: the stored key rendered by the language hook before the
 * schema (which says text) serializes it.
 */
const taskText = (stored: StoredText | null, english: string | null) =>
  fromStored(stored, english) as string | null;

export function toTaskStatus(row: VideoTaskRow): TaskStatusData {
  return {
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
  return { refunded: failed.creditsCharged };
}

export interface SubmitInput {
  prompt: string | undefined;
  model: string | undefined;
  image: Buffer | undefined;
}

/** 429: the user already has the most unfinished tasks allowed. */
const tooManyTasks = () =>
  new AppError(429, 'TOO_MANY_TASKS', msg('video.too_many_tasks', { max: MAX_UNFINISHED_TASKS }));

export function createVideoService(deps: {
  db: Db;
  /** Image-mode uploads go to the media store, where any worker reads them; deletes empty it. */
  media: Pick<VideoMedia, 'saveUpload' | 'removeUpload' | 'store'>;
  /** The first provider of each mode's route (the task's provider until one accepts it). */
  firstProvider: Record<'text' | 'image', string>;
  deadlineMs: number;
  /** Credits a video costs; VIDEO_COST unless a test prices it otherwise (the refund never reads it). */
  videoCost?: number;
}) {
  const { db } = deps;
  const cost = deps.videoCost ?? VIDEO_COST;

  return {
    /**
     * What refuses a submit before any upload is read or decoded (issue 34, finding 7): the
     * balance (from the session's row) and the unfinished-task cap (one indexed count, no lock;
     * the submit's transaction checks both again under the user's lock).
     */
    async assertCanStart(user: UserRow, model: string): Promise<void> {
      assertCanAfford(user, model, cost);
      if ((await repo.countUnfinished(db, user.id)) >= MAX_UNFINISHED_TASKS) throw tooManyTasks();
    },

    /** Spec 5 "Generate" and issue rules: validate, then charge and queue in one transaction. */
    async submit(user: UserRow | null, input: SubmitInput) {
      if (!user) throw unauthorized(msg('video.sign_in_required'), 'SIGN_IN_REQUIRED');
      const prompt = (input.prompt ?? '').trim();
      if (!prompt) throw badRequest(msg('video.prompt_required'), 'PROMPT_REQUIRED');
      if (prompt.length > MAX_PROMPT_LENGTH) {
        throw badRequest(
          msg('video.prompt_too_long', { max: MAX_PROMPT_LENGTH }),
          'PROMPT_TOO_LONG',
        );
      }
      const model = input.model ?? MODELS[0];
      if (!(MODELS as readonly string[]).includes(model)) {
        throw badRequest(
          msg('video.unknown_model', { model, text: MODELS[0], image: MODELS[1] }),
          'UNKNOWN_MODEL',
        );
      }
      const mode = model === IMAGE_MODEL ? 'image' : 'text';
      if (mode === 'image' && !input.image?.length) {
        throw badRequest(msg('video.image_required'), 'IMAGE_REQUIRED');
      }

      const id = randomUUID();
      let inputImage: string | null = null;
      if (mode === 'image') {
        // Issue 16, finding 13, and issue 34, finding 7: a user who cannot pay, or who has the
        // most unfinished tasks already, never gets an image decoded.
        assertCanAfford(user, model, cost);
        if ((await repo.countUnfinished(db, user.id)) >= MAX_UNFINISHED_TASKS) throw tooManyTasks();
        const png = await reencodeUpload(input.image!);
        inputImage = await deps.media.saveUpload(id, png);
      }

      try {
        return await db.transaction(async (tx) => {
          // One user's submits run one at a time from here, so the cap and the balance hold.
          const balance = await lockUserCredits(tx, user.id);
          if (balance === null)
            throw unauthorized(msg('video.sign_in_required'), 'SIGN_IN_REQUIRED');
          if ((await repo.countUnfinished(tx, user.id)) >= MAX_UNFINISHED_TASKS) {
            throw tooManyTasks();
          }
          let remaining: number;
          try {
            const charged = await applyCreditChange(tx, {
              userId: user.id,
              amount: -cost,
              sourceType: 'video_task',
              sourceId: id,
              description: `${MODEL_NAMES[model]} video: ${prompt.slice(0, 80)}`,
            });
            remaining = charged.transaction.balanceAfter;
          } catch (error) {
            if (error instanceof InsufficientCreditsError) {
              throw new AppError(
                402,
                'INSUFFICIENT_CREDITS',
                msg('video.not_enough_credits', {
                  model: MODEL_NAMES[model] ?? model,
                  cost,
                  balance: error.balance,
                }),
              );
            }
            throw error;
          }
          await repo.insertTask(tx, {
            id,
            userId: user.id,
            model,
            mode,
            prompt,
            inputImage,
            provider: deps.firstProvider[mode],
            statusMessage: TASK_MESSAGES.queued.render('en'),
            statusText: storedText(TASK_MESSAGES.queued),
            deadlineAt: new Date(Date.now() + deps.deadlineMs),
            // Written with the debit, in its transaction: what a refund returns.
            creditsCharged: cost,
          });
          return { taskId: id, remainingCredits: remaining };
        });
      } catch (error) {
        if (inputImage) await deps.media.removeUpload(inputImage).catch(() => {});
        throw error;
      }
    },

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
  const [rows, stats] = await Promise.all([healthRepo.allHealth(db), repo.providerStats(db, 24)]);
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
    };
  });
}
