/**
 * What Replicate's Veo 3.1 models can do, and which one a job runs on (issue 35).
 *
 * Sources (checked 2026-12-07): the google/veo-3.1 and google/veo-3.1-fast API pages on
 * replicate.com (input schema: `prompt`, `image`, `last_frame`, `reference_images` — 1 to 3
 * images, 16:9 and 8 s only, not on -fast —, `duration` 4 | 6 | 8, `aspect_ratio` 16:9 | 9:16,
 * `resolution` 720p | 1080p, `generate_audio`, `negative_prompt`, `seed`; output one URI), as
 * summarised in /work/shared/providers-brief.md §2 and §6. Neither schema takes a video, so
 * Replicate cannot extend one.
 */
import { MAX_REFERENCE_IMAGES, type Tier } from '../../../../../shared/video-options.ts';
import { FIXED_MODEL, type ModelCapabilities } from '../capabilities.ts';
import type { VideoJobInput } from '../types.ts';
import { parseModelRef } from './wire.ts';

const OWNER = 'google';
const STANDARD = 'veo-3.1';
const FAST = 'veo-3.1-fast';

/**
 * A route on `google/veo-3.1` sends the fast tier to `google/veo-3.1-fast`; a pinned version
 * (`owner/name:version`) stays on its version, so it has only the tier it names. A route on
 * `-fast` stays fast whatever the tier (the operator chose it) and has no reference images.
 */
export function replicateModelCapabilities(model: string): ModelCapabilities {
  const ref = parseModelRef(model);
  if (!ref || ref.owner !== OWNER || (ref.name !== STANDARD && ref.name !== FAST)) {
    return FIXED_MODEL;
  }
  const fastRoute = ref.name === FAST;
  return {
    modes: ['text', 'image'],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
    tiers: fastRoute || ref.version === undefined ? ['standard', 'fast'] : ['standard'],
    negativePrompt: true,
    seed: true,
    lastFrame: true,
    referenceImages: fastRoute
      ? null
      : {
          max: MAX_REFERENCE_IMAGES,
          aspectRatios: ['16:9'],
          resolutions: ['720p', '1080p'],
          tiers: ['standard'],
        },
    extend: null,
  };
}

/** The models a route may name (each has a price in content/provider-costs.json). */
export const REPLICATE_ROUTE_MODELS = [`${OWNER}/${STANDARD}`, `${OWNER}/${FAST}`] as const;

/** What a job is billed as: the model it runs on (a pinned version bills as its model). */
export function replicateBilledModel(model: string, tier: Tier): string {
  const ref = parseModelRef(model);
  if (!ref) return model;
  const fast = tier === 'fast' && ref.owner === OWNER && ref.name === STANDARD && !ref.version;
  return `${ref.owner}/${fast ? FAST : ref.name}`;
}

/** The model reference a job runs on: the route's, or its fast sibling for the fast tier. */
export function replicateTarget(input: VideoJobInput): ReturnType<typeof parseModelRef> {
  const ref = parseModelRef(input.model);
  if (!ref) return null;
  const toFast =
    input.options.tier === 'fast' &&
    ref.owner === OWNER &&
    ref.name === STANDARD &&
    ref.version === undefined;
  return toFast ? { owner: OWNER, name: FAST } : ref;
}
