/**
 * Video generation values the site and the server both use (spec 3 "Video model options",
 * 5 "Generate", 9: 17 credits a video, 8 s with audio). Plain values only: the request and answer
 * schemas built from them are in server/contracts/video.ts.
 */
import site from '../content/site.json' with { type: 'json' };
import { MEGABYTE } from './images.ts';
import { PRICE_TABLE } from './video-options.ts';

/**
 * Credits one video costs with no option chosen, in both modes (spec 9: 17): the price table's
 * `video` (content/video-pricing.json), so the pricing copy and the charge never disagree.
 */
export const VIDEO_COST: number = PRICE_TABLE.video;
/** Length of every clip, with audio (spec 9). */
export const VIDEO_SECONDS = 8;

/** Text mode uses `{product}`, image mode `{product}-fast-frames` (spec 3). */
export const TEXT_MODEL = site.product;
export const IMAGE_MODEL = `${site.product}-fast-frames`;
export const MODELS = [TEXT_MODEL, IMAGE_MODEL] as const;
export const MODEL_NAMES: Record<string, string> = {
  [TEXT_MODEL]: site.productName,
  [IMAGE_MODEL]: `${site.productName} Fast Frames`,
};

/** Where a task stands, in the order it moves (spec 3 "Video task"). */
export const TASK_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;

/** At most this many unfinished tasks per user. */
export const MAX_UNFINISHED_TASKS = 3;
/** Prompts longer than this are refused (the generator's field stops there). */
export const MAX_PROMPT_LENGTH = 2000;
/** Uploads larger than this are refused (spec 9: 10 MB). */
export const MAX_IMAGE_BYTES = 10 * MEGABYTE;
/** Spec 9: the history shows 10 videos a page. */
export const HISTORY_PAGE_SIZE = 10;

/** Spec 5 "History": the text for a visitor without a session, from the server and the page. */
export const HISTORY_MESSAGES = {
  signInRequired: 'Please login first',
} as const;

/** Spec 5 "Generate": the exact texts. */
export const GENERATE_MESSAGES = {
  promptRequired: 'Please enter a prompt',
  imageRequired: 'Image to Video mode requires an image. Please upload an image.',
  signInRequired: 'Please login before generating a video',
  notEnoughCredits: (modelName: string, cost: number, have: number) =>
    `Not enough credits! Generating a ${modelName} video requires ${cost} credits, you currently have ${have} credits`,
};
