/**
 * Video generation shapes (spec 3 "Video task", "Generation response", "History response") the
 * site reads. The values they use are in shared/video.ts; the schemas in
 * server/contracts/video.ts.
 */
import type { TASK_STATUSES } from '../video.ts';
import type { VideoOptionsData } from '../video-options.ts';
import type { KeysetPage, Ok } from './common.ts';

/** Where a task stands (spec 3 "Video task"). */
export type TaskStatus = (typeof TASK_STATUSES)[number];

export type GenerateResponse = {
  success: true;
  data: { taskId: string; remainingCredits: number };
  message: string;
};

/** The options a task was made with, as the API spells them (shared/video-options.ts). */
export type { VideoOptionsData } from '../video-options.ts';

/** What a task adds about its options, in the status and the history. */
type TaskOptionFields = {
  options: VideoOptionsData;
  /** The video this one extends (its own id), or null. */
  source_task_id: string | null;
  /** Length of the clip: 8, or the source's length + 7 for an extension. */
  duration_seconds: number;
  /** What the task cost (a failed one is refunded exactly this). */
  credits_charged: number;
};

/** `GET /api/video/quote`: what a request with these fields would cost, and its options. */
export type QuoteResponse = Ok<{ credits: number; options: VideoOptionsData }>;

export type TaskStatusData = TaskOptionFields & {
  id: string;
  status: TaskStatus;
  status_message: string | null;
  /** 0 to 100. */
  progress: number;
  result_url: string | null;
  poster_url: string | null;
  error_message: string | null;
  model: string;
  prompt: string;
  created_at: string;
  updated_at: string;
};

export type TaskStatusResponse = Ok<TaskStatusData>;

export type HistoryItem = TaskOptionFields & {
  id: string;
  prompt: string;
  model: string;
  mode: 'text' | 'image';
  result_url: string;
  poster_url: string | null;
  created_at: string;
  completed_at: string;
};

/**
 * A numbered page carries `total` (exact up to the videos numbered pages reach, 1,000 + a page;
 * past that the bound, with `total_exact` false), `page` and `pages` (the numbered pages); a
 * cursor page carries `next_cursor` and `has_more` only, like every page.
 */
type HistoryPage = KeysetPage & {
  items: HistoryItem[];
  total?: number;
  total_exact?: boolean;
  page?: number;
  pages?: number;
  limit: number;
};

export type HistoryResponse = {
  success: true;
  data: HistoryPage;
  message: string;
};
