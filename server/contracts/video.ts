/**
 * Video generation schemas (spec 3 "Video model options", "Video task", "Generation response",
 * "History response"). The types the site reads are in shared/api/video.ts; the values the
 * schemas are built from (cost, models, limits, texts) in shared/video.ts.
 */
import { Type, type Static } from 'typebox';
import { HISTORY_PAGE_SIZE, TASK_STATUSES } from '../../shared/video.ts';
import {
  ASPECT_RATIOS,
  MAX_REFERENCE_IMAGES,
  MAX_SEED,
  RESOLUTIONS,
  TIERS,
} from '../../shared/video-options.ts';
import type * as api from '../../shared/api/video.ts';
import { KeysetFields, LiteralUnion, Ok, schemaFor } from './common.ts';

export const TaskStatus = schemaFor<api.TaskStatus>()(LiteralUnion(TASK_STATUSES));
export type TaskStatus = api.TaskStatus;

export const GenerateResponse = schemaFor<api.GenerateResponse>()(
  Type.Object({
    success: Type.Literal(true),
    data: Type.Object({ taskId: Type.String(), remainingCredits: Type.Integer() }),
    message: Type.String(),
  }),
);
export type GenerateResponse = api.GenerateResponse;

/** The options a task was made with (issue 35), as the API spells them. */
export const VideoOptionsData = schemaFor<api.VideoOptionsData>()(
  Type.Object({
    aspect_ratio: LiteralUnion(ASPECT_RATIOS),
    resolution: LiteralUnion(RESOLUTIONS),
    tier: LiteralUnion(TIERS),
    negative_prompt: Type.Union([Type.String(), Type.Null()]),
    seed: Type.Union([Type.Integer({ minimum: 0, maximum: MAX_SEED }), Type.Null()]),
    last_frame: Type.Boolean(),
    reference_images: Type.Integer({ minimum: 0, maximum: MAX_REFERENCE_IMAGES }),
  }),
);

const TaskOptionFields = {
  options: VideoOptionsData,
  source_task_id: Type.Union([Type.String(), Type.Null()]),
  duration_seconds: Type.Integer(),
  credits_charged: Type.Integer(),
};

/** `GET /api/video/quote`: the fields of a generate request, files as `last_frame` and a count. */
export const QuoteQuery = Type.Object(
  {
    model: Type.Optional(Type.String({ maxLength: 100 })),
    aspect_ratio: Type.Optional(Type.String({ maxLength: 20 })),
    resolution: Type.Optional(Type.String({ maxLength: 20 })),
    tier: Type.Optional(Type.String({ maxLength: 20 })),
    negative_prompt: Type.Optional(Type.String({ maxLength: 2000 })),
    seed: Type.Optional(Type.String({ maxLength: 20 })),
    last_frame: Type.Optional(Type.String({ maxLength: 10 })),
    reference_images: Type.Optional(Type.String({ maxLength: 10 })),
    extend_task_id: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);

export const QuoteResponse = schemaFor<api.QuoteResponse>()(
  Ok(Type.Object({ credits: Type.Integer({ minimum: 1 }), options: VideoOptionsData })),
);

export const TaskStatusData = schemaFor<api.TaskStatusData>()(
  Type.Object({
    ...TaskOptionFields,
    id: Type.String(),
    status: TaskStatus,
    status_message: Type.Union([Type.String(), Type.Null()]),
    progress: Type.Integer({ minimum: 0, maximum: 100 }),
    result_url: Type.Union([Type.String(), Type.Null()]),
    poster_url: Type.Union([Type.String(), Type.Null()]),
    error_message: Type.Union([Type.String(), Type.Null()]),
    model: Type.String(),
    prompt: Type.String(),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);
export type TaskStatusData = api.TaskStatusData;

export const TaskStatusResponse = schemaFor<api.TaskStatusResponse>()(Ok(TaskStatusData));
export type TaskStatusResponse = api.TaskStatusResponse;

export const HistoryItem = schemaFor<api.HistoryItem>()(
  Type.Object({
    ...TaskOptionFields,
    id: Type.String(),
    prompt: Type.String(),
    model: Type.String(),
    mode: Type.Union([Type.Literal('text'), Type.Literal('image')]),
    result_url: Type.String(),
    poster_url: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    completed_at: Type.String(),
  }),
);
export type HistoryItem = api.HistoryItem;

/**
 * Spec 7: `?page={n}&limit=10`. `cursor` (a previous page's `next_cursor`) fetches the next page
 * in constant time; pages past the first 1,000 videos are reached only that way.
 */
export const HistoryQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: HISTORY_PAGE_SIZE }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);
export type HistoryQuery = Static<typeof HistoryQuery>;

/** A page of the history: see `HistoryResponse` in shared/api/video.ts for what it carries. */
export const HistoryResponse = schemaFor<api.HistoryResponse>()(
  Type.Object({
    success: Type.Literal(true),
    data: Type.Object({
      items: Type.Array(HistoryItem),
      total: Type.Optional(Type.Integer()),
      total_exact: Type.Optional(Type.Boolean()),
      page: Type.Optional(Type.Integer()),
      pages: Type.Optional(Type.Integer()),
      limit: Type.Integer(),
      ...KeysetFields,
    }),
    message: Type.String(),
  }),
);
export type HistoryResponse = api.HistoryResponse;
