/**
 * Video generation shapes (spec 3 "Video model options", "Video task", "Generation response",
 * "History response"). The values they are built from (cost, models, limits, texts) are in
 * shared/video.ts.
 */
import { Type, type Static } from 'typebox';
import { HISTORY_PAGE_SIZE, TASK_STATUSES } from '../../shared/video.ts';
import { KeysetFields, LiteralUnion, Ok } from './common.ts';

export const TaskStatus = LiteralUnion(TASK_STATUSES);
export type TaskStatus = Static<typeof TaskStatus>;

export const GenerateResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ taskId: Type.String(), remainingCredits: Type.Integer() }),
  message: Type.String(),
});
export type GenerateResponse = Static<typeof GenerateResponse>;

export const TaskStatusData = Type.Object({
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
});
export type TaskStatusData = Static<typeof TaskStatusData>;

export const TaskStatusResponse = Ok(TaskStatusData);
export type TaskStatusResponse = Static<typeof TaskStatusResponse>;

export const HistoryItem = Type.Object({
  id: Type.String(),
  prompt: Type.String(),
  model: Type.String(),
  mode: Type.Union([Type.Literal('text'), Type.Literal('image')]),
  result_url: Type.String(),
  poster_url: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  completed_at: Type.String(),
});
export type HistoryItem = Static<typeof HistoryItem>;

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

/**
 * A numbered page carries `total` (exact up to the videos numbered pages reach, 1,000 + a page;
 * past that the bound, with `total_exact` false), `page` and `pages` (the numbered pages); a
 * cursor page carries `next_cursor` and `has_more` only, like every page.
 */
export const HistoryResponse = Type.Object({
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
});
export type HistoryResponse = Static<typeof HistoryResponse>;
