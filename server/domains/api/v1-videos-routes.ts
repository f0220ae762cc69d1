/**
 * /v1/videos (issue 36): create, read, list, delete and extend a developer's videos, on the video
 * service the site uses (the same checks, price, charge and task; no second way to make a video).
 * POSTs run under `Idempotency-Key` (idempotency.ts): the answer is stored in the submit's own
 * transaction, so a retry replays it and is never charged twice.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Config } from '../../config.ts';
import { currentUser } from '../../core/auth.ts';
import { decodeCursor, keysetPage } from '../../core/cursor.ts';
import type { Db } from '../../core/db.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import { jsonBytes, sendJsonBytes } from '../../core/json-bytes.ts';
import type { UserRow, VideoTaskRow } from '../../db/schema.ts';
import type { UserCache } from '../../core/user-cache.ts';
import {
  ApiErrorResponse,
  ApiVideo,
  commonErrors,
  CreateVideoBody,
  ExtendVideoBody,
  IdempotencyHeaders,
  ListVideosQuery,
  VideoList,
  VideoParams,
} from '../../contracts/public-api.ts';
import { IMAGE_MODEL, MAX_IMAGE_BYTES, TEXT_MODEL } from '../../../shared/video.ts';
import { MEGABYTE } from '../../../shared/images.ts';
import { OPTION_FIELDS } from '../../../shared/video-options.ts';
import { toApiVideo, type VideoService } from '../video/service.ts';
import type { Idempotency, SaveAnswer } from './idempotency.ts';
import { checkImageFields, paramError, readImages } from './v1-input.ts';
import { listVideos, prepareFindOwnVideo } from './v1-videos-repository.ts';
import { isUuid } from '../../core/uuid.ts';

/**
 * A POST /v1/videos body may carry a first frame and an end frame inline, each up to
 * MAX_IMAGE_BYTES as base64 (4/3 larger): 2 × 13.4 MB and the rest. Larger sets of images (three
 * reference images of 10 MB) are sent by URL.
 */
const VIDEO_BODY_LIMIT = 32 * MEGABYTE;
/** What a body that names no image may be (an extension): the prompt, options and metadata. */
const EXTEND_BODY_LIMIT = 256 * 1024;

/** The pieces of the webhooks service a request's `webhook_url` is checked with. */
interface WebhookChecks {
  /** Throws the 400 unless events could be delivered there (https in production, the guard). */
  assertDeliverableUrl(url: string): Promise<unknown>;
  /** Whether the user has the request secret that signs events sent to a request's own URL. */
  requestSecretExists(userId: string): Promise<boolean>;
}

/** A cached read has no expiry of its own: only a change notice drops it. */
const NEVER = new Date(8.64e15);
/** The copy kept of an id that is none of the caller's videos (deleted, another's, unknown). */
const NOT_THEIRS = Buffer.alloc(0);

const videoNotFound = () => notFound(msg('v1_videos.not_found'), 'VIDEO_NOT_FOUND');

/** The path id as a task id: anything but a uuid names no video. */
function videoId(id: string): string {
  if (!isUuid(id)) throw videoNotFound();
  return id.toLowerCase();
}

/** The option fields of a body as the video service reads them (the site form's text fields). */
function optionFields(body: {
  aspect_ratio?: string | undefined;
  resolution?: string | undefined;
  tier?: string | undefined;
  negative_prompt?: string | undefined;
  seed?: number | undefined;
}): Record<string, string> {
  const fields: Record<string, string> = {};
  const set = (name: string, value: string | number | undefined) => {
    if (value !== undefined) fields[name] = String(value);
  };
  set(OPTION_FIELDS.aspectRatio, body.aspect_ratio);
  set(OPTION_FIELDS.resolution, body.resolution);
  set(OPTION_FIELDS.tier, body.tier);
  set(OPTION_FIELDS.negativePrompt, body.negative_prompt);
  set(OPTION_FIELDS.seed, body.seed);
  return fields;
}

export async function v1VideoRoutes(
  fastify: FastifyInstance,
  opts: {
    db: Db;
    video: VideoService;
    idempotency: Idempotency;
    config: Config;
    webhooks: WebhookChecks;
    /**
     * A user's video as its JSON answer, kept per process until one of their tasks changes
     * (plugin.ts): a poll is answered with these bytes, not serialized or encoded again.
     */
    videoReads: UserCache<Buffer>;
  },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, video, idempotency, config, webhooks, videoReads } = opts;
  const findOwnVideo = prepareFindOwnVideo(db);
  const tags = ['v1'];
  const origin = config.publicSiteUrl;

  /** Refuses a webhook_url events could not be sent to, or that nothing would sign. */
  async function checkWebhook(user: UserRow, url: string | undefined): Promise<void> {
    if (url === undefined) return;
    await webhooks.assertDeliverableUrl(url).catch((error: unknown) => {
      // The refusal names the field it is about.
      throw error instanceof AppError ? Object.assign(error, { param: 'webhook_url' }) : error;
    });
    if (!(await webhooks.requestSecretExists(user.id))) {
      throw paramError(
        400,
        'WEBHOOK_SECRET_MISSING',
        msg('v1_videos.webhook_secret_missing'),
        'webhook_url',
      );
    }
  }

  /**
   * The video service's submit for this key: its cap, the caller's metadata and webhook_url, and
   * the answer (stored for Idempotency-Key in the same transaction).
   */
  async function submit(
    request: FastifyRequest,
    input: Parameters<VideoService['submit']>[1],
    caller: { metadata?: Record<string, string> | undefined; webhook_url?: string | undefined },
    save: SaveAnswer | null,
  ) {
    const key = request.apiKey!;
    let answer: ReturnType<typeof toApiVideo> | undefined;
    await video.submit(currentUser(request), input, {
      apiKeyId: key.id,
      maxUnfinished: key.limits.unfinishedVideos,
      metadata: caller.metadata ?? null,
      webhookUrl: caller.webhook_url ?? null,
      inTransaction: async (tx, task: VideoTaskRow) => {
        answer = toApiVideo(task, origin);
        if (save) await save(tx, 202, answer);
      },
    });
    return answer!;
  }

  const created = { 202: ApiVideo, ...commonErrors, 402: ApiErrorResponse, 409: ApiErrorResponse };

  app.post(
    '/v1/videos',
    {
      config: { access: 'api-key', scope: 'videos:write' },
      bodyLimit: VIDEO_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Start a video',
        description:
          `Charges the video's price (GET /v1/quote) and answers 202 with the video, status pending; ` +
          `poll GET /v1/videos/{id} or take the webhook. Images by URL (public http/https, ` +
          `≤ ${MAX_IMAGE_BYTES / MEGABYTE} MB) or base64; the whole body ≤ ${VIDEO_BODY_LIMIT / MEGABYTE} MB.`,
        headers: IdempotencyHeaders,
        body: CreateVideoBody,
        response: { ...created, 413: ApiErrorResponse, 422: ApiErrorResponse },
      },
    },
    (request, reply) =>
      idempotency.handle(request, reply, 202, async (save) => {
        const body = request.body;
        const user = currentUser(request);
        const mode = body.mode ?? 'text';
        const model = mode === 'image' ? IMAGE_MODEL : TEXT_MODEL;
        const files = checkImageFields(body, mode);
        const fields = optionFields(body);
        await checkWebhook(user, body.webhook_url);
        // Before any image is fetched or decoded, a request that will be refused costs us
        // nothing: one no provider here can make (the quote's 400), a user who cannot pay, or a
        // key at its cap of unfinished videos.
        video.quote(model, {
          ...fields,
          [OPTION_FIELDS.lastFrame]: files.lastFrame ? 'true' : '',
          [OPTION_FIELDS.referenceImages]: String(files.referenceImages),
        });
        const key = request.apiKey!;
        await video.assertCanStart(user, model, fields, files, {
          apiKeyId: key.id,
          maxUnfinished: key.limits.unfinishedVideos,
        });
        const images = await readImages(body, config.outbound);
        return submit(request, { prompt: body.prompt, model, fields, ...images }, body, save);
      }),
  );

  app.post(
    '/v1/videos/:id/extend',
    {
      config: { access: 'api-key', scope: 'videos:write' },
      bodyLimit: EXTEND_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Extend a completed video',
        description:
          'A new video that continues one of yours by 7 s, in its shape and resolution; charged as an extension.',
        params: VideoParams,
        headers: IdempotencyHeaders,
        body: ExtendVideoBody,
        response: { ...created, 404: ApiErrorResponse, 422: ApiErrorResponse },
      },
    },
    (request, reply) =>
      idempotency.handle(request, reply, 202, async (save) => {
        const body = request.body;
        const id = videoId(request.params.id);
        await checkWebhook(currentUser(request), body.webhook_url);
        const fields = { ...optionFields(body), [OPTION_FIELDS.extend]: id };
        const input = { prompt: body.prompt, model: TEXT_MODEL, image: undefined, fields };
        try {
          return await submit(request, input, body, save);
        } catch (error) {
          // The path names the video: one that is not the caller's is simply not found.
          if (error instanceof AppError && error.code === 'EXTEND_SOURCE_NOT_FOUND') {
            throw videoNotFound();
          }
          throw error;
        }
      }),
  );

  app.get(
    '/v1/videos/:id',
    {
      config: { access: 'api-key', scope: 'videos:read' },
      schema: {
        tags,
        summary: 'A video',
        description: 'Poll it until status is completed (result_url) or failed (refunded).',
        params: VideoParams,
        response: { 200: ApiVideo, ...commonErrors, 404: ApiErrorResponse },
      },
    },
    async (request, reply) => {
      const userId = currentUser(request).id;
      const id = videoId(request.params.id);
      // A client polls its video until it finishes: answered from this process's copy until a
      // change to any of the owner's tasks (the database's notice) drops it, on every process.
      // An id that is not theirs is kept too: a client polling a video it deleted (or a mistyped
      // id) costs a database read once, not on every poll. A new video of theirs is a change to
      // their tasks, which drops it.
      const found = await videoReads.keyed(`${userId}:${id}`, async () => {
        const row = await findOwnVideo(userId, id);
        // Serialized once by the route's response schema, and encoded once.
        const value = row ? jsonBytes(reply, toApiVideo(row, origin)) : NOT_THEIRS;
        return { value, userId, expiresAt: NEVER };
      });
      if (!found || found === NOT_THEIRS) throw videoNotFound();
      return sendJsonBytes(reply, found);
    },
  );

  app.get(
    '/v1/videos',
    {
      config: { access: 'api-key', scope: 'videos:read' },
      schema: {
        tags,
        summary: 'Your videos, newest first',
        description: 'Keyset pages: pass next_cursor as cursor while has_more is true.',
        querystring: ListVideosQuery,
        response: { 200: VideoList, ...commonErrors },
      },
    },
    async (request) => {
      const { status, limit, cursor } = request.query;
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const rows = await listVideos(db, currentUser(request).id, limit + 1, { status, after });
      const page = keysetPage(rows, limit, (row) => ({ ts: row.sortTs, id: row.id }));
      return {
        data: page.rows.map((row) => toApiVideo(row, origin)),
        has_more: page.has_more,
        next_cursor: page.next_cursor,
      };
    },
  );

  app.delete(
    '/v1/videos/:id',
    {
      config: { access: 'api-key', scope: 'videos:write' },
      schema: {
        tags,
        summary: 'Delete a finished video',
        description:
          'Its result and poster are deleted and it leaves your list; credits are not refunded. A video still being made is 409.',
        params: VideoParams,
        response: {
          204: Type.Null({ description: 'Deleted' }),
          ...commonErrors,
          404: ApiErrorResponse,
          409: ApiErrorResponse,
        },
      },
    },
    async (request, reply) => {
      try {
        await video.deleteVideo(currentUser(request).id, videoId(request.params.id));
      } catch (error) {
        if (error instanceof AppError && error.code === 'TASK_NOT_FOUND') throw videoNotFound();
        throw error;
      }
      return reply.status(204).send(null);
    },
  );
}
