/**
 * The creative options as the generator's form holds them (issue 35): what the Advanced panel
 * chose, turned into the shared VideoOptions (for videoPrice), into the fields the API takes
 * (generate form and quote query, sent only when they differ from the default), and back from a
 * task's options (Generate again with these settings).
 */
import type { VideoOptionsData } from '../../../shared/api/video.ts';
import {
  DEFAULT_OPTIONS,
  MAX_SEED,
  OPTION_FIELDS,
  type AspectRatio,
  type Resolution,
  type Tier,
  type VideoOptions,
} from '../../../shared/video-options.ts';
import type { GeneratorMode } from './generation-rules.ts';

/** The Advanced panel's choices, as typed (the seed is text until it is sent). */
export interface OptionChoice {
  aspectRatio: AspectRatio;
  resolution: Resolution;
  tier: Tier;
  /** '' is none. */
  negativePrompt: string;
  /** '' is a random seed. */
  seed: string;
}

export const DEFAULT_CHOICE: Readonly<OptionChoice> = Object.freeze({
  aspectRatio: DEFAULT_OPTIONS.aspectRatio,
  resolution: DEFAULT_OPTIONS.resolution,
  tier: DEFAULT_OPTIONS.tier,
  negativePrompt: '',
  seed: '',
});

/** The video an extension continues, as far as the page knows it. */
interface ExtendSource {
  taskId: string;
  /** Its shape and resolution (the extension keeps them), once its status has loaded. */
  options: Pick<VideoOptionsData, 'aspect_ratio' | 'resolution'> | null;
}

/** Everything the price and the request depend on besides the prompt. */
export interface ChoiceContext {
  mode: GeneratorMode;
  lastFrame: boolean;
  referenceImages: number;
  extend: ExtendSource | null;
}

/** A typed seed as a number, null for none, NaN when it is not one the API takes. */
export function seedValue(seed: string): number | null {
  const text = seed.trim();
  if (text === '') return null;
  const value = /^\d{1,10}$/.test(text) ? Number(text) : NaN;
  return value <= MAX_SEED ? value : NaN;
}

/**
 * The options a request with this choice asks for. An extension keeps its source's shape and
 * resolution; an end frame counts in image mode only, reference images in text mode only.
 */
export function optionsOf(choice: OptionChoice, context: ChoiceContext): VideoOptions {
  const seed = seedValue(choice.seed);
  const source = context.extend?.options;
  return {
    aspectRatio: context.extend
      ? (source?.aspect_ratio ?? DEFAULT_OPTIONS.aspectRatio)
      : choice.aspectRatio,
    resolution: context.extend
      ? (source?.resolution ?? DEFAULT_OPTIONS.resolution)
      : choice.resolution,
    tier: choice.tier,
    negativePrompt: choice.negativePrompt.trim() || null,
    seed: seed === null || Number.isNaN(seed) ? null : seed,
    lastFrame: context.mode === 'image' && !context.extend && context.lastFrame,
    referenceImages:
      context.mode === 'text' && !context.extend ? Math.max(0, context.referenceImages) : 0,
    extend: context.extend !== null,
  };
}

/**
 * The option fields of the generate form and the quote query, in the API's order, only those
 * that differ from the default (the files are sent apart). An extension sends no shape: the
 * server takes it from the source video.
 */
export function optionFields(
  options: VideoOptions,
  extendTaskId: string | null,
): [string, string][] {
  const fields: [string, string][] = [];
  if (!extendTaskId) {
    if (options.aspectRatio !== DEFAULT_OPTIONS.aspectRatio)
      fields.push([OPTION_FIELDS.aspectRatio, options.aspectRatio]);
    if (options.resolution !== DEFAULT_OPTIONS.resolution)
      fields.push([OPTION_FIELDS.resolution, options.resolution]);
  }
  if (options.tier !== DEFAULT_OPTIONS.tier) fields.push([OPTION_FIELDS.tier, options.tier]);
  if (options.negativePrompt) fields.push([OPTION_FIELDS.negativePrompt, options.negativePrompt]);
  if (options.seed !== null) fields.push([OPTION_FIELDS.seed, String(options.seed)]);
  if (extendTaskId) fields.push([OPTION_FIELDS.extend, extendTaskId]);
  return fields;
}

/** The query of `GET /api/video/quote` for a request (the files by count). */
export function quoteQuery(
  model: string,
  options: VideoOptions,
  extendTaskId: string | null,
): string {
  const query = new URLSearchParams([['model', model], ...optionFields(options, extendTaskId)]);
  if (options.lastFrame) query.set(OPTION_FIELDS.lastFrame, '1');
  if (options.referenceImages > 0)
    query.set(OPTION_FIELDS.referenceImages, String(options.referenceImages));
  return query.toString();
}

/** The choice a task was made with (its files are not kept: the user adds them again). */
export function choiceOf(options: Partial<VideoOptionsData> | null | undefined): OptionChoice {
  return {
    aspectRatio: options?.aspect_ratio ?? DEFAULT_CHOICE.aspectRatio,
    resolution: options?.resolution ?? DEFAULT_CHOICE.resolution,
    tier: options?.tier ?? DEFAULT_CHOICE.tier,
    negativePrompt: options?.negative_prompt ?? '',
    seed: options?.seed === null || options?.seed === undefined ? '' : String(options.seed),
  };
}

/** Options as the API spells them (for the words of optionLabels). */
export const optionsData = (options: VideoOptions): VideoOptionsData => ({
  aspect_ratio: options.aspectRatio,
  resolution: options.resolution,
  tier: options.tier,
  negative_prompt: options.negativePrompt,
  seed: options.seed,
  last_frame: options.lastFrame,
  reference_images: options.referenceImages,
});
