/**
 * fal's Veo 3.1 endpoints: what each route model can do, and which endpoint a job goes to (issue 35).
 * fal serves one endpoint per feature and tier, so a route names the family (`fal-ai/veo3.1` for
 * text, `fal-ai/veo3.1/image-to-video` for images) and the adapter picks the variant per job.
 *
 * Sources (checked 2026-12-07): @fal-ai/client endpoint types (github.com/fal-ai/fal-js commit
 * 381105e, `libs/client/src/types/endpoints.ts`): `fal-ai/veo3.1`, `/image-to-video`,
 * `/first-last-frame-to-video` (`first_frame_url`, `last_frame_url`), `/reference-to-video`
 * (`image_urls`; no `negative_prompt`, no `seed`), `/extend-video` (`video_url`, duration "7s"),
 * and `/fast/…` for each of them except reference-to-video (there is no `fast/reference-to-video`);
 * aspect_ratio 16:9 | 9:16, resolution 720p | 1080p | 4k. fal.ai/models/fal-ai/veo3.1/extend-video:
 * input videos up to 8 s, 720p or 1080p, 16:9 or 9:16 (extension runs on Vertex AI behind fal).
 * Lite (`fal-ai/veo3.1/lite…`) keeps the spec's clip only: no option was checked for it.
 */
import { MAX_REFERENCE_IMAGES, type Tier } from '../../../../../shared/video-options.ts';
import { FIXED_MODEL, type ModelCapabilities } from '../capabilities.ts';
import type { VideoJobInput } from '../types.ts';

const FAMILY = 'fal-ai/veo3.1';
const FEATURES = [
  'image-to-video',
  'first-last-frame-to-video',
  'reference-to-video',
  'extend-video',
] as const;
export type FalFeature = (typeof FEATURES)[number];

const LITE = `${FAMILY}/lite`;

/** The endpoints a route may name (each has a price in content/provider-costs.json). */
export const FAL_ROUTE_MODELS = [
  FAMILY,
  `${FAMILY}/image-to-video`,
  `${FAMILY}/fast`,
  `${FAMILY}/fast/image-to-video`,
  LITE,
  `${LITE}/image-to-video`,
] as const;

/**
 * What a job is billed as: fal prices the Veo 3.1 family per tier, whatever the feature endpoint
 * (text, image, first-last-frame, reference, extend), so the family or its `/fast` or `/lite`.
 */
export function falBilledModel(model: string, tier: Tier): string {
  const parsed = parseVeoEndpoint(model);
  if (parsed) return parsed.fast || tier === 'fast' ? `${FAMILY}/fast` : FAMILY;
  return model === LITE || model.startsWith(`${LITE}/`) ? LITE : model;
}

/** fal's extend-video takes a source of at most this many seconds. */
export const FAL_EXTEND_MAX_SOURCE_SECONDS = 8;

/** `fal-ai/veo3.1[/fast][/feature]` as its parts; null for any other endpoint id (Lite included). */
export function parseVeoEndpoint(
  model: string,
): { fast: boolean; feature: FalFeature | null } | null {
  if (model !== FAMILY && !model.startsWith(`${FAMILY}/`)) return null;
  const parts = model.slice(FAMILY.length + 1).split('/');
  if (parts.length === 1 && parts[0] === '') return { fast: false, feature: null };
  const fast = parts[0] === 'fast';
  if (fast) parts.shift();
  if (parts.length === 0) return { fast, feature: null };
  const [feature] = parts;
  if (parts.length !== 1 || !(FEATURES as readonly string[]).includes(feature ?? '')) return null;
  return { fast, feature: feature as FalFeature };
}

/**
 * What a route model of the Veo 3.1 family can do. A route on a `/fast` endpoint stays fast
 * whatever the tier (the operator chose it), so it has no reference images: fal has no fast
 * reference-to-video.
 */
export function falModelCapabilities(model: string): ModelCapabilities {
  const parsed = parseVeoEndpoint(model);
  if (!parsed) return FIXED_MODEL;
  return {
    modes: ['text', 'image'],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
    tiers: ['standard', 'fast'],
    negativePrompt: true,
    seed: true,
    lastFrame: true,
    referenceImages: parsed.fast
      ? null
      : {
          max: MAX_REFERENCE_IMAGES,
          aspectRatios: ['16:9', '9:16'],
          resolutions: ['720p', '1080p'],
          tiers: ['standard'],
          negativePrompt: false,
          seed: false,
        },
    extend: {
      resolutions: ['720p', '1080p'],
      tiers: ['standard', 'fast'],
      maxSourceSeconds: FAL_EXTEND_MAX_SOURCE_SECONDS,
    },
  };
}

/** The feature endpoint a job needs, from its options and mode (null: plain text-to-video). */
function featureOf(input: VideoJobInput): FalFeature | null {
  const { options } = input;
  if (options.extend) return 'extend-video';
  if (options.referenceImages > 0) return 'reference-to-video';
  if (options.lastFrame) return 'first-last-frame-to-video';
  return input.mode === 'image' ? 'image-to-video' : null;
}

/**
 * The endpoint id a job is submitted to: the route's family with the job's tier and feature
 * (`fal-ai/veo3.1` + fast + last frame → `fal-ai/veo3.1/fast/first-last-frame-to-video`). Any
 * other route model is used as configured (it only ever gets the spec's clip).
 */
export function falEndpoint(input: VideoJobInput): string {
  const parsed = parseVeoEndpoint(input.model);
  if (!parsed) return input.model;
  const fast = parsed.fast || input.options.tier === 'fast';
  const feature = featureOf(input);
  return [FAMILY, fast ? 'fast' : null, feature].filter((p) => p !== null).join('/');
}
