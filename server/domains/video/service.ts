/**
 * Video generation: submit (17 credits and the task in one transaction), status, history, and
 * the refund of failed tasks, exactly once (ledger source `refund:{taskId}`).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db, DbOrTx } from '../../core/db.ts';
import { AppError, badRequest, notFound, unauthorized } from '../../core/errors.ts';
import { checkImage, reencodeImage } from '../../core/images.ts';
import type { UserRow, VideoTaskRow } from '../../db/schema.ts';
import type { HistoryItem, TaskStatusData } from '../../contracts/video.ts';
import {
  GENERATE_MESSAGES,
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
import * as repo from './repository.ts';

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
export function assertCanAfford(user: UserRow, model: string): void {
  if (user.credits >= VIDEO_COST) return;
  const name = MODEL_NAMES[model] ?? model;
  throw new AppError(
    402,
    'INSUFFICIENT_CREDITS',
    GENERATE_MESSAGES.notEnoughCredits(name, VIDEO_COST, user.credits),
  );
}

export function toTaskStatus(row: VideoTaskRow): TaskStatusData {
  return {
    id: row.id,
    status: row.status,
    status_message: row.statusMessage,
    progress: row.progress,
    result_url: row.resultUrl,
    poster_url: row.posterUrl,
    error_message: row.errorMessage,
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
 * of times from any process: only the call that moves the task to failed refunds.
 */
export async function failAndRefund(tx: DbOrTx, taskId: string, reason: string): Promise<boolean> {
  const failed = await repo.failTask(tx, taskId, reason);
  if (!failed) return false;
  await applyCreditChange(tx, {
    userId: failed.userId,
    amount: VIDEO_COST,
    sourceType: 'refund',
    sourceId: taskId,
    description: `Refund: video generation failed (${reason.slice(0, 120)})`,
  });
  return true;
}

export interface SubmitInput {
  prompt: string | undefined;
  model: string | undefined;
  image: Buffer | undefined;
}

export function createVideoService(deps: {
  db: Db;
  uploadsDir: string;
  providerName: string;
  deadlineMs: number;
}) {
  const { db } = deps;

  return {
    assertCanAfford,

    /** Spec 5 "Generate" and issue rules: validate, then charge and queue in one transaction. */
    async submit(user: UserRow | null, input: SubmitInput) {
      if (!user) throw unauthorized(GENERATE_MESSAGES.signInRequired, 'SIGN_IN_REQUIRED');
      const prompt = (input.prompt ?? '').trim();
      if (!prompt) throw badRequest(GENERATE_MESSAGES.promptRequired, 'PROMPT_REQUIRED');
      if (prompt.length > MAX_PROMPT_LENGTH) {
        throw badRequest(
          `The prompt is too long: keep it under ${MAX_PROMPT_LENGTH} characters.`,
          'PROMPT_TOO_LONG',
        );
      }
      const model = input.model ?? MODELS[0];
      if (!(MODELS as readonly string[]).includes(model)) {
        throw badRequest(
          `Unknown model '${model}'. Use '${MODELS[0]}' (text) or '${MODELS[1]}' (image).`,
          'UNKNOWN_MODEL',
        );
      }
      const mode = model === IMAGE_MODEL ? 'image' : 'text';
      if (mode === 'image' && !input.image?.length) {
        throw badRequest(GENERATE_MESSAGES.imageRequired, 'IMAGE_REQUIRED');
      }

      const id = randomUUID();
      let imagePath: string | null = null;
      if (mode === 'image') {
        // Issue 16, finding 13: a user who cannot pay never gets an image decoded.
        assertCanAfford(user, model);
        const png = await reencodeUpload(input.image!);
        await mkdir(deps.uploadsDir, { recursive: true });
        imagePath = path.join(deps.uploadsDir, `${id}.png`);
        await writeFile(imagePath, png);
      }

      try {
        return await db.transaction(async (tx) => {
          // One user's submits run one at a time from here, so the cap and the balance hold.
          const balance = await lockUserCredits(tx, user.id);
          if (balance === null)
            throw unauthorized(GENERATE_MESSAGES.signInRequired, 'SIGN_IN_REQUIRED');
          if ((await repo.countUnfinished(tx, user.id)) >= MAX_UNFINISHED_TASKS) {
            throw new AppError(
              429,
              'TOO_MANY_TASKS',
              `You already have ${MAX_UNFINISHED_TASKS} videos in progress. Wait for one to finish, then try again.`,
            );
          }
          let remaining: number;
          try {
            const charged = await applyCreditChange(tx, {
              userId: user.id,
              amount: -VIDEO_COST,
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
                GENERATE_MESSAGES.notEnoughCredits(
                  MODEL_NAMES[model] ?? model,
                  VIDEO_COST,
                  error.balance,
                ),
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
            inputImage: imagePath ? path.basename(imagePath) : null,
            provider: deps.providerName,
            statusMessage: 'Waiting in the queue',
            deadlineAt: new Date(Date.now() + deps.deadlineMs),
          });
          return { taskId: id, remainingCredits: remaining };
        });
      } catch (error) {
        if (imagePath) await rm(imagePath, { force: true });
        throw error;
      }
    },

    async status(userId: string, taskId: string): Promise<TaskStatusData> {
      const task = await repo.findTask(db, taskId);
      if (!task || task.userId !== userId)
        throw notFound('No video task with that id belongs to you.', 'TASK_NOT_FOUND');
      return toTaskStatus(task);
    },

    async history(userId: string, page: number, limit: number) {
      const { rows, total } = await repo.completedPage(db, userId, limit, (page - 1) * limit);
      return {
        items: rows.map(toHistoryItem),
        total,
        page,
        pages: Math.max(1, Math.ceil(total / limit)),
        limit,
      };
    },
  };
}

export type VideoService = ReturnType<typeof createVideoService>;
