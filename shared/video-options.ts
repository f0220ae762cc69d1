/**
 * A video's creative options (issue 35): shape, resolution, tier, negative prompt, seed, an end
 * frame, reference images, or continuing an earlier video, and the one price function every part
 * uses (the generator's button, the quote and generate routes, the admin), read from the
 * operator's table in content/video-pricing.json. With no option chosen a video is the spec's
 * clip: 8 s with audio, 16:9, 720p, 17 credits.
 *
 * Plain values only: the server's request parsing (server/domains/video/options.ts) and each
 * provider's capabilities (providers/capabilities.ts) build on these.
 */
import table from '../content/video-pricing.json' with { type: 'json' };

export const ASPECT_RATIOS = ['16:9', '9:16'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];
export const RESOLUTIONS = ['720p', '1080p'] as const;
export type Resolution = (typeof RESOLUTIONS)[number];
export const TIERS = ['standard', 'fast'] as const;
export type Tier = (typeof TIERS)[number];

/** A negative prompt longer than this is refused. */
export const MAX_NEGATIVE_PROMPT_LENGTH = 500;
/** Seeds are 0 … 2³²−1 (Veo's range). */
export const MAX_SEED = 2 ** 32 - 1;
/** Reference images a text-mode video may take (Veo 3.1: one to three). */
export const MAX_REFERENCE_IMAGES = 3;
/** One extension adds this much video (Veo's extension step). */
export const EXTEND_SECONDS = 7;
/** The longest video an extension may produce (Veo: 148 s after 20 extensions). */
export const MAX_EXTENDED_SECONDS = 148;

/**
 * The creative options a task was made with (issue 35), as the API spells them; the spec's clip
 * is `{aspect_ratio: '16:9', resolution: '720p', tier: 'standard', negative_prompt: null,
 * seed: null, last_frame: false, reference_images: 0}`.
 */
export type VideoOptionsData = {
  aspect_ratio: AspectRatio;
  resolution: Resolution;
  tier: Tier;
  negative_prompt: string | null;
  seed: number | null;
  /** An end frame was given (image mode). */
  last_frame: boolean;
  /** How many reference images were given (text mode), 0 … 3. */
  reference_images: number;
};

/** The options of one video request, every one resolved (defaults filled in). */
export interface VideoOptions {
  aspectRatio: AspectRatio;
  resolution: Resolution;
  tier: Tier;
  /** What the video should not show; null: none. */
  negativePrompt: string | null;
  /** The same seed and inputs give the same video where the provider promises it; null: random. */
  seed: number | null;
  /** Image mode: a second image the video ends on. */
  lastFrame: boolean;
  /** Text mode: how many reference images (0 … MAX_REFERENCE_IMAGES) keep a subject the same. */
  referenceImages: number;
  /** Continues an earlier video of the user's by EXTEND_SECONDS. */
  extend: boolean;
}

/** The spec's clip: what a request with no option asks for. */
export const DEFAULT_OPTIONS: Readonly<VideoOptions> = Object.freeze({
  aspectRatio: '16:9',
  resolution: '720p',
  tier: 'standard',
  negativePrompt: null,
  seed: null,
  lastFrame: false,
  referenceImages: 0,
  extend: false,
});

/** The option names as the API and the multipart form spell them (and messages name them). */
export const OPTION_FIELDS = {
  aspectRatio: 'aspect_ratio',
  resolution: 'resolution',
  tier: 'tier',
  negativePrompt: 'negative_prompt',
  seed: 'seed',
  lastFrame: 'last_frame',
  referenceImages: 'reference_images',
  extend: 'extend_task_id',
} as const satisfies Record<keyof VideoOptions, string>;
export type OptionField = (typeof OPTION_FIELDS)[keyof VideoOptions];

/** content/video-pricing.json, checked when this module loads (a bad edit stops the start). */
export interface PriceTable {
  video: number;
  extend: number;
  add: {
    aspect_ratio: Record<AspectRatio, number>;
    resolution: Record<Resolution, number>;
    tier: Record<Tier, number>;
    negative_prompt: number;
    seed: number;
    last_frame: number;
    reference_images: number;
  };
}

/** Throws, naming the entry, unless `value` is a complete price table of whole credits. */
export function checkPriceTable(value: unknown): PriceTable {
  const fail = (where: string): never => {
    throw new Error(`content/video-pricing.json: ${where} must be a whole number of credits.`);
  };
  const whole = (v: unknown, where: string, min = -1000) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= 100_000 ? v : fail(where);
  const t = value as PriceTable;
  whole(t?.video, 'video', 1);
  whole(t?.extend, 'extend', 1);
  const add = t?.add as unknown as Record<string, unknown> | undefined;
  if (!add || typeof add !== 'object') fail('add');
  const choices = { aspect_ratio: ASPECT_RATIOS, resolution: RESOLUTIONS, tier: TIERS };
  for (const [name, values] of Object.entries(choices)) {
    const entry = add![name] as Record<string, unknown> | undefined;
    for (const v of values) whole(entry?.[v], `add.${name}["${v}"]`);
  }
  for (const name of ['negative_prompt', 'seed', 'last_frame', 'reference_images'])
    whole(add![name], `add.${name}`);
  return t;
}

export const PRICE_TABLE: Readonly<PriceTable> = checkPriceTable(table);

/**
 * Credits a video with these options costs: the clip (or the extension) plus each chosen option's
 * change; reference images are priced once, however many; never below 1.
 */
export function videoPrice(
  options: Readonly<VideoOptions>,
  prices: Readonly<PriceTable> = PRICE_TABLE,
): number {
  const add = prices.add;
  let credits = options.extend ? prices.extend : prices.video;
  credits += add.aspect_ratio[options.aspectRatio] + add.resolution[options.resolution];
  credits += add.tier[options.tier];
  if (options.negativePrompt) credits += add.negative_prompt;
  if (options.seed !== null) credits += add.seed;
  if (options.lastFrame) credits += add.last_frame;
  if (options.referenceImages > 0) credits += add.reference_images;
  return Math.max(1, credits);
}

/** Picture size of a shape at a resolution: 720p 16:9 is 1280×720, 1080p 9:16 is 1080×1920. */
export function frameSize(
  aspectRatio: AspectRatio,
  resolution: Resolution,
): { width: number; height: number } {
  const short = resolution === '1080p' ? 1080 : 720;
  const long = (short * 16) / 9;
  return aspectRatio === '9:16' ? { width: short, height: long } : { width: long, height: short };
}

/** Whether any option differs from the spec's clip (the history shows a line only then). */
export const hasOptions = (o: Readonly<VideoOptions>): boolean =>
  (Object.keys(DEFAULT_OPTIONS) as Array<keyof VideoOptions>).some(
    (k) => o[k] !== DEFAULT_OPTIONS[k],
  );

/** Options as the API spells them (the status, the history, the quote, the admin). */
export const toOptionsData = (o: Readonly<VideoOptions>): VideoOptionsData => ({
  aspect_ratio: o.aspectRatio,
  resolution: o.resolution,
  tier: o.tier,
  negative_prompt: o.negativePrompt,
  seed: o.seed,
  last_frame: o.lastFrame,
  reference_images: o.referenceImages,
});

/** The API's spelling back as options (the site and the admin price a shown task with it). */
export const fromOptionsData = (d: VideoOptionsData, extend = false): VideoOptions => ({
  aspectRatio: d.aspect_ratio,
  resolution: d.resolution,
  tier: d.tier,
  negativePrompt: d.negative_prompt,
  seed: d.seed,
  lastFrame: d.last_frame,
  referenceImages: d.reference_images,
  extend,
});

/** A short English line of the options that differ from the spec's clip ('' for none). */
export function optionsLine(d: VideoOptionsData): string {
  const parts: string[] = [];
  if (d.aspect_ratio !== DEFAULT_OPTIONS.aspectRatio) parts.push(d.aspect_ratio);
  if (d.resolution !== DEFAULT_OPTIONS.resolution) parts.push(d.resolution);
  if (d.tier !== DEFAULT_OPTIONS.tier) parts.push(d.tier);
  if (d.seed !== null) parts.push(`seed ${d.seed}`);
  if (d.negative_prompt) parts.push('negative prompt');
  if (d.last_frame) parts.push('last frame');
  if (d.reference_images > 0) parts.push(`${d.reference_images} reference images`);
  return parts.join(' · ');
}
