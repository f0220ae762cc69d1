/**
 * Starting a video (spec 5 "Generate", issue 35): the prompt, model and options checked, the
 * route entries that can make it found, the price computed (videoPrice, the quote's function),
 * then the charge of that price and the task, which records it, in one transaction. Uploads (the
 * first frame, an end frame, reference images) are decoded only for a user who can pay, and
 * removed again when the submit does not go through.
 */
import { randomUUID } from 'node:crypto';
import type { RouteEntry } from '../../config-video.ts';
import type { Db, DbOrTx, Tx } from '../../core/db.ts';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../../core/errors.ts';
import { checkImage, reencodeImage } from '../../core/images.ts';
import { msg } from '../../core/api-messages.ts';
import type { UserRow, VideoTaskRow } from '../../db/schema.ts';
import {
  IMAGE_MODEL,
  MAX_IMAGE_BYTES,
  MAX_PROMPT_LENGTH,
  MAX_UNFINISHED_TASKS,
  MODELS,
  MODEL_NAMES,
  VIDEO_SECONDS,
} from '../../../shared/video.ts';
import {
  DEFAULT_OPTIONS,
  EXTEND_SECONDS,
  hasOptions,
  MAX_EXTENDED_SECONDS,
  MAX_REFERENCE_IMAGES,
  OPTION_FIELDS,
  PRICE_TABLE,
  videoPrice,
  type PriceTable,
  type VideoOptions,
} from '../../../shared/video-options.ts';
import {
  InsufficientCreditsError,
  applyCreditChange,
  lockUserCredits,
  revenueOfChargeSql,
} from '../credits/service.ts';
import { LAST_FRAME_PART, referencePart, type VideoMedia } from './media.ts';
import { storedText, TASK_MESSAGES } from './messages.ts';
import {
  assertAffordable,
  assertRoutable,
  extendSourceOf,
  readOptions,
  type OptionFields,
} from './options.ts';
import type { VideoMode } from './providers/types.ts';
import * as repo from './repository.ts';

export interface SubmitInput {
  prompt: string | undefined;
  model: string | undefined;
  /** The first frame (image mode). */
  image: Buffer | undefined;
  /** The option fields as sent (aspect_ratio, resolution, tier, negative_prompt, seed, extend_task_id). */
  fields?: OptionFields;
  /** An end frame (image mode). */
  lastFrame?: Buffer | undefined;
  /** Reference images (text mode), 1 to 3. */
  referenceImages?: Buffer[];
}

/**
 * A submit through the public API (issue 36): the key it counts against, what the task keeps for
 * the caller, and work to do in the submit's own transaction (the idempotent answer, so a replay
 * and the charge commit together or not at all).
 */
export interface ApiSubmit {
  apiKeyId: string;
  /** This key's cap on unfinished videos (it replaces the site's per-user cap). */
  maxUnfinished: number;
  metadata: Record<string, string> | null;
  webhookUrl: string | null;
  inTransaction?: (tx: Tx, task: VideoTaskRow) => Promise<void>;
}

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
export function assertCanAfford(user: UserRow, model: string, cost: number): void {
  if (user.credits >= cost) return;
  const name = MODEL_NAMES[model] ?? model;
  throw new AppError(
    402,
    'INSUFFICIENT_CREDITS',
    msg('video.not_enough_credits', { model: name, cost, balance: user.credits }),
  );
}

/** 429: the user (or, through the API, the key) already has the most unfinished tasks allowed. */
const tooManyTasks = (api?: Pick<ApiSubmit, 'maxUnfinished'>) =>
  new AppError(
    429,
    'TOO_MANY_TASKS',
    msg('video.too_many_tasks', { max: api?.maxUnfinished ?? MAX_UNFINISHED_TASKS }),
  );

/** Whether the user's (the site) or the key's (the API) unfinished videos are at their cap. */
async function atCap(
  db: DbOrTx,
  userId: string,
  api: Pick<ApiSubmit, 'apiKeyId' | 'maxUnfinished'> | undefined,
): Promise<boolean> {
  if (api) return (await repo.countUnfinished(db, { apiKeyId: api.apiKeyId })) >= api.maxUnfinished;
  return (await repo.countUnfinished(db, userId)) >= MAX_UNFINISHED_TASKS;
}

function modeOf(model: string | undefined): { model: string; mode: VideoMode } {
  const chosen = model || MODELS[0];
  if (!(MODELS as readonly string[]).includes(chosen)) {
    throw badRequest(
      msg('video.unknown_model', { model: chosen, text: MODELS[0], image: MODELS[1] }),
      'UNKNOWN_MODEL',
    );
  }
  return { model: chosen, mode: chosen === IMAGE_MODEL ? 'image' : 'text' };
}

/** `last_frame` and `reference_images` of a quote: the files a generate form would carry. */
function quotedFiles(fields: OptionFields) {
  const last = fields[OPTION_FIELDS.lastFrame]?.trim() ?? '';
  if (!['', '0', '1', 'true', 'false'].includes(last)) {
    throw badRequest(
      msg('video.option_invalid', { option: 'last_frame', value: last, allowed: 'true, false' }),
      'OPTION_INVALID',
    );
  }
  const refs = fields[OPTION_FIELDS.referenceImages]?.trim() || '0';
  if (!/^\d$/.test(refs) || Number(refs) > MAX_REFERENCE_IMAGES) {
    throw badRequest(
      msg('video.too_many_reference_images', { max: MAX_REFERENCE_IMAGES }),
      'TOO_MANY_REFERENCE_IMAGES',
    );
  }
  return { lastFrame: last === '1' || last === 'true', referenceImages: Number(refs) };
}

export function createSubmit(deps: {
  db: Db;
  media: Pick<VideoMedia, 'saveUpload' | 'removeUpload'>;
  /** Each mode's route (config.video.routes): a request goes only where it can be made. */
  routes: Record<VideoMode, readonly RouteEntry[]>;
  deadlineMs: number;
  /** The price table; content/video-pricing.json unless a test prices otherwise. */
  prices?: PriceTable;
  /** VIDEO_MAX_COST_USD: entries whose video would cost more are refused (null: no cap). */
  maxCostUsd?: number | null;
}) {
  const { db } = deps;
  const prices = deps.prices ?? PRICE_TABLE;
  const maxCost = deps.maxCostUsd ?? null;

  /**
   * An extension's source: one of the user's finished videos, not deleted. Its shape and
   * resolution are the extension's; asking for others is refused.
   */
  async function extensionOf(userId: string, sourceId: string, fields: OptionFields) {
    const source = await repo.findTask(db, sourceId);
    if (!source || source.userId !== userId || source.deletedAt) {
      throw notFound(msg('video.extend_source_not_found'), 'EXTEND_SOURCE_NOT_FOUND');
    }
    if (source.status !== 'completed' || !source.resultUrl) {
      throw conflict(msg('video.extend_source_not_ready'), 'EXTEND_SOURCE_NOT_READY');
    }
    const shape = source.options ?? DEFAULT_OPTIONS;
    for (const [option, value] of [
      [OPTION_FIELDS.aspectRatio, shape.aspectRatio],
      [OPTION_FIELDS.resolution, shape.resolution],
    ] as const) {
      const asked = fields[option]?.trim();
      if (asked && asked !== value) {
        throw badRequest(
          msg('video.extend_shape_conflict', { option, value }),
          'EXTEND_SHAPE_CONFLICT',
        );
      }
    }
    const seconds = source.durationSeconds + EXTEND_SECONDS;
    if (seconds > MAX_EXTENDED_SECONDS) {
      throw badRequest(
        msg('video.extend_too_long', {
          seconds: source.durationSeconds,
          max: MAX_EXTENDED_SECONDS,
        }),
        'EXTEND_TOO_LONG',
      );
    }
    return { source, shape, seconds };
  }

  /** Options, where they can be made, the price, and (an extension) its source and length. */
  async function plan(
    user: UserRow,
    mode: VideoMode,
    fields: OptionFields,
    files: { lastFrame: boolean; referenceImages: number },
  ) {
    const options = readOptions(fields, mode, files);
    let sourceTaskId: string | null = null;
    let sourceSeconds: number | undefined;
    let durationSeconds = VIDEO_SECONDS;
    const sourceId = extendSourceOf(fields);
    if (sourceId !== null) {
      const { source, shape, seconds } = await extensionOf(user.id, sourceId, fields);
      options.aspectRatio = shape.aspectRatio;
      options.resolution = shape.resolution;
      sourceTaskId = source.id;
      sourceSeconds = source.durationSeconds;
      durationSeconds = seconds;
    }
    const capable = assertRoutable(deps.routes[mode], mode, options, sourceSeconds);
    const entries = assertAffordable(capable, options, durationSeconds, maxCost);
    return { options, entries, price: videoPrice(options, prices), sourceTaskId, durationSeconds };
  }

  return {
    /**
     * GET /api/video/quote: what a generate request with these fields would cost (no charge, no
     * session needed), or the 400 that request would get. An extension is priced with the
     * shape and resolution given (the source is not looked up: the quote is public).
     */
    quote(model: string | undefined, fields: OptionFields) {
      const { mode } = modeOf(model);
      const options = readOptions(fields, mode, quotedFiles(fields));
      assertAffordable(
        assertRoutable(deps.routes[mode], mode, options),
        options,
        VIDEO_SECONDS,
        maxCost,
      );
      return { credits: videoPrice(options, prices), options };
    },

    /**
     * What refuses a submit before any upload is read or decoded (issue 34, finding 7): the
     * balance against the price of the fields read so far (the session's row) and the
     * unfinished-task cap; the submit's transaction checks both again under the user's lock.
     */
    async assertCanStart(
      user: UserRow,
      model: string,
      fields: OptionFields = {},
      files = { lastFrame: false, referenceImages: 0 },
      api?: Pick<ApiSubmit, 'apiKeyId' | 'maxUnfinished'>,
    ): Promise<void> {
      const { mode } = modeOf(model);
      const options = readOptions(fields, mode, files);
      assertCanAfford(user, model, videoPrice(options, prices));
      if (await atCap(db, user.id, api)) throw tooManyTasks(api);
    },

    async submit(user: UserRow | null, input: SubmitInput, api?: ApiSubmit) {
      if (!user) throw unauthorized(msg('video.sign_in_required'), 'SIGN_IN_REQUIRED');
      const prompt = (input.prompt ?? '').trim();
      if (!prompt) throw badRequest(msg('video.prompt_required'), 'PROMPT_REQUIRED');
      if (prompt.length > MAX_PROMPT_LENGTH) {
        throw badRequest(
          msg('video.prompt_too_long', { max: MAX_PROMPT_LENGTH }),
          'PROMPT_TOO_LONG',
        );
      }
      const { model, mode } = modeOf(input.model);
      if (mode === 'image' && !input.image?.length) {
        throw badRequest(msg('video.image_required'), 'IMAGE_REQUIRED');
      }
      const references = input.referenceImages ?? [];
      const planned = await plan(user, mode, input.fields ?? {}, {
        lastFrame: Boolean(input.lastFrame?.length),
        referenceImages: references.length,
      });
      const { options, entries, price } = planned;

      const id = randomUUID();
      const saved: string[] = [];
      let inputImage: string | null = null;
      try {
        const uploads: Array<[Buffer, string]> = [];
        if (mode === 'image') uploads.push([input.image!, '']);
        if (options.lastFrame) uploads.push([input.lastFrame!, LAST_FRAME_PART]);
        references.forEach((ref, i) => uploads.push([ref, referencePart(i)]));
        if (uploads.length > 0) {
          // Issue 16, finding 13, and issue 34, finding 7: a user who cannot pay, or who has the
          // most unfinished tasks already, never gets an image decoded.
          assertCanAfford(user, model, price);
          if (await atCap(db, user.id, api)) throw tooManyTasks(api);
          for (const [bytes, part] of uploads) {
            const name = await deps.media.saveUpload(id, await reencodeUpload(bytes), part);
            saved.push(name);
            if (part === '') inputImage = name;
          }
        }
        return await db.transaction(async (tx) => {
          // One user's submits run one at a time from here, so the cap and the balance hold.
          const balance = await lockUserCredits(tx, user.id);
          if (balance === null)
            throw unauthorized(msg('video.sign_in_required'), 'SIGN_IN_REQUIRED');
          if (await atCap(tx, user.id, api)) throw tooManyTasks(api);
          let remaining: number;
          try {
            const charged = await applyCreditChange(tx, {
              userId: user.id,
              amount: -price,
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
                  cost: price,
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
            options: hasOptions(options) ? options : null,
            sourceTaskId: planned.sourceTaskId,
            durationSeconds: planned.durationSeconds,
            // The first entry that can make it: the task's provider until one accepts it.
            provider: entries[0]!.provider,
            statusMessage: TASK_MESSAGES.queued.render('en'),
            statusText: storedText(TASK_MESSAGES.queued),
            deadlineAt: new Date(Date.now() + deps.deadlineMs),
            // Written with the debit, in its transaction: what a refund returns.
            creditsCharged: price,
            // Issue 37: what those credits brought in, at the user's value of a credit now.
            revenueUsd: revenueOfChargeSql(user.id, price),
            apiKeyId: api?.apiKeyId ?? null,
            metadata: api?.metadata ?? null,
            webhookUrl: api?.webhookUrl ?? null,
          });
          if (api?.inTransaction) await api.inTransaction(tx, (await repo.findTask(tx, id))!);
          return { taskId: id, remainingCredits: remaining };
        });
      } catch (error) {
        await Promise.all(saved.map((name) => deps.media.removeUpload(name).catch(() => {})));
        throw error;
      }
    },
  };
}

/** The options a stored task was made with (null in the row: the spec's clip). */
export const taskOptions = (row: { options: VideoOptions | null }): VideoOptions =>
  row.options ?? { ...DEFAULT_OPTIONS };
