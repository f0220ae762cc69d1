/**
 * What one model of a provider can do (issue 35, item 5). Each descriptor answers
 * `modelCapabilities(model)` for the model ids its routes name; the generate route refuses a
 * request no route entry can do (400, before any charge), and the worker sends a task only to
 * entries that can do all of it, in the configured order.
 */
import {
  DEFAULT_OPTIONS,
  OPTION_FIELDS,
  type AspectRatio,
  type OptionField,
  type Resolution,
  type Tier,
  type VideoOptions,
} from '../../../../shared/video-options.ts';
import type { VideoMode } from './types.ts';

export interface ModelCapabilities {
  readonly modes: readonly VideoMode[];
  readonly aspectRatios: readonly AspectRatio[];
  readonly resolutions: readonly Resolution[];
  /** `fast`: the adapter sends the model's fast variant (fal `/fast/…`, `veo-3.1-fast-…`). */
  readonly tiers: readonly Tier[];
  readonly negativePrompt: boolean;
  readonly seed: boolean;
  /** An end frame besides the first one (image mode). */
  readonly lastFrame: boolean;
  /**
   * Reference images in text mode: at most `max`, and only with these shapes, resolutions and
   * tiers (Replicate: 16:9, standard only); null: none.
   */
  readonly referenceImages: {
    readonly max: number;
    readonly aspectRatios: readonly AspectRatio[];
    readonly resolutions: readonly Resolution[];
    readonly tiers: readonly Tier[];
    /**
     * false: the reference endpoint takes no negative prompt / no seed (fal's
     * `/reference-to-video` has neither field); absent: as the model-wide flags say.
     */
    readonly negativePrompt?: boolean;
    readonly seed?: boolean;
  } | null;
  /**
   * Continuing an earlier video by EXTEND_SECONDS, at these resolutions and tiers, from a video of
   * at most `maxSourceSeconds` (fal: 8, Vertex: 30; absent: any length we make); null: no.
   */
  readonly extend: {
    readonly resolutions: readonly Resolution[];
    readonly tiers: readonly Tier[];
    readonly maxSourceSeconds?: number;
  } | null;
}

/** The spec's clip and nothing more: 8 s with audio, 16:9, 720p, from text or a first frame. */
export const FIXED_MODEL: ModelCapabilities = {
  modes: ['text', 'image'],
  aspectRatios: ['16:9'],
  resolutions: ['720p'],
  tiers: ['standard'],
  negativePrompt: false,
  seed: false,
  lastFrame: false,
  referenceImages: null,
  extend: null,
};

/**
 * The first option this model cannot do for the request, as the API names it, or null when it can
 * do all of it. Checked in a fixed order, so a refusal always names the same option.
 */
export function unsupportedOption(
  caps: ModelCapabilities,
  mode: VideoMode,
  options: Readonly<VideoOptions> = DEFAULT_OPTIONS,
  /** An extension's source length, in seconds (checked against `extend.maxSourceSeconds`). */
  sourceSeconds?: number,
): OptionField | 'mode' | null {
  if (!caps.modes.includes(mode)) return 'mode';
  if (options.extend) {
    if (!caps.extend) return OPTION_FIELDS.extend;
    if (!caps.extend.resolutions.includes(options.resolution)) return OPTION_FIELDS.resolution;
    if (!caps.extend.tiers.includes(options.tier)) return OPTION_FIELDS.tier;
    const longest = caps.extend.maxSourceSeconds;
    if (longest !== undefined && sourceSeconds !== undefined && sourceSeconds > longest)
      return OPTION_FIELDS.extend;
  }
  if (!caps.aspectRatios.includes(options.aspectRatio)) return OPTION_FIELDS.aspectRatio;
  if (!caps.resolutions.includes(options.resolution)) return OPTION_FIELDS.resolution;
  if (!caps.tiers.includes(options.tier)) return OPTION_FIELDS.tier;
  if (options.negativePrompt && !caps.negativePrompt) return OPTION_FIELDS.negativePrompt;
  if (options.seed !== null && !caps.seed) return OPTION_FIELDS.seed;
  if (options.lastFrame && !caps.lastFrame) return OPTION_FIELDS.lastFrame;
  if (options.referenceImages > 0) {
    const refs = caps.referenceImages;
    if (
      !refs ||
      options.referenceImages > refs.max ||
      !refs.aspectRatios.includes(options.aspectRatio) ||
      !refs.resolutions.includes(options.resolution) ||
      !refs.tiers.includes(options.tier)
    )
      return OPTION_FIELDS.referenceImages;
    if (options.negativePrompt && refs.negativePrompt === false)
      return OPTION_FIELDS.negativePrompt;
    if (options.seed !== null && refs.seed === false) return OPTION_FIELDS.seed;
  }
  return null;
}
