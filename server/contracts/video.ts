/**
 * Video generation shapes (spec 3 "Video model options", "Video task", "Generation response",
 * "History response"; spec 9: 17 credits, 8 s with audio).
 */
import { Type, type Static } from 'typebox';
import site from '../../content/site.json' with { type: 'json' };
import { Ok } from './common.ts';

export const VIDEO_COST = 17;
export const VIDEO_SECONDS = 8;
/** Text mode uses `{product}`, image mode `{product}-fast-frames` (spec 3). */
export const TEXT_MODEL = site.product;
export const IMAGE_MODEL = `${site.product}-fast-frames`;
export const MODELS = [TEXT_MODEL, IMAGE_MODEL] as const;
export const MODEL_NAMES: Record<string, string> = {
  [TEXT_MODEL]: site.productName,
  [IMAGE_MODEL]: `${site.productName} Fast Frames`,
};
/** At most this many unfinished tasks per user. */
export const MAX_UNFINISHED_TASKS = 3;
/** Uploads larger than this are refused (spec 9: 10 MB). */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

export const TaskStatus = Type.Union([
  Type.Literal('pending'),
  Type.Literal('processing'),
  Type.Literal('completed'),
  Type.Literal('failed'),
]);
export type TaskStatus = Static<typeof TaskStatus>;

/** Spec 5 "Generate": the exact texts. */
export const GENERATE_MESSAGES = {
  promptRequired: 'Please enter a prompt',
  imageRequired: 'Image to Video mode requires an image. Please upload an image.',
  signInRequired: 'Please login before generating a video',
  notEnoughCredits: (modelName: string, cost: number, have: number) =>
    `Not enough credits! Generating a ${modelName} video requires ${cost} credits, you currently have ${have} credits`,
};

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

export const HistoryQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 100_000, default: 1 }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 10 }),
  },
  { additionalProperties: false },
);

export const HistoryResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    items: Type.Array(HistoryItem),
    total: Type.Integer(),
    page: Type.Integer(),
    pages: Type.Integer(),
    limit: Type.Integer(),
  }),
  message: Type.String(),
});
export type HistoryResponse = Static<typeof HistoryResponse>;
