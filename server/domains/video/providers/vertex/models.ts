/**
 * What Vertex AI's Veo 3.1 models can do, and which model a job runs on (issue 35).
 *
 * Sources (checked 2026-12-07): the Veo video generation API reference and REST type
 * VideoGenerationModelInstance (cloud.google.com/vertex-ai/generative-ai/docs/model-reference/
 * veo-video-generation): `instances[].image`, `lastFrame` ("an input image must also be
 * provided"), `video` ("this video will be extended by the given duration"; not with `image`),
 * `referenceImages[]` `{image, referenceType}` (not with image, video or lastFrame; "asset" images,
 * up to three of one subject — "Generate Veo videos from reference images"); `parameters`
 * `aspectRatio` 16:9 | 9:16, `resolution`, `durationSeconds`, `negativePrompt`, `seed`,
 * `generateAudio`. @google/genai (googleapis/js-genai, `_models_converters.ts`: `videoToVertex`
 * → `{gcsUri | bytesBase64Encoded, mimeType}`, `videoGenerationReferenceImageToVertex`).
 * "Extend Veo on Vertex AI-generated videos": sources of 1 to 30 s.
 * Where sources disagree, the narrower claim is kept: reference images 16:9 only and on the
 * standard model only (third-party gateways also offer 9:16 and veo-3.1-fast references; Google's
 * pages checked do not say), extension at 720p only (third parties report 720p and 1080p).
 */
import { MAX_REFERENCE_IMAGES, type Tier } from '../../../../../shared/video-options.ts';
import { FIXED_MODEL, type ModelCapabilities } from '../capabilities.ts';
import type { VideoJobInput } from '../types.ts';

const STANDARD = 'veo-3.1-generate-001';
const FAST = 'veo-3.1-fast-generate-001';

/** The longest source video Vertex AI extends. */
export const VERTEX_EXTEND_MAX_SOURCE_SECONDS = 30;

/**
 * A route on the standard model sends the fast tier to veo-3.1-fast-generate-001; a route on the
 * fast model stays fast whatever the tier (the operator chose it). Lite and other ids keep the
 * spec's clip.
 */
export function vertexModelCapabilities(model: string): ModelCapabilities {
  if (model !== STANDARD && model !== FAST) return FIXED_MODEL;
  return {
    modes: ['text', 'image'],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
    tiers: ['standard', 'fast'],
    negativePrompt: true,
    seed: true,
    lastFrame: true,
    referenceImages:
      model === STANDARD
        ? {
            max: MAX_REFERENCE_IMAGES,
            aspectRatios: ['16:9'],
            resolutions: ['720p', '1080p'],
            tiers: ['standard'],
          }
        : null,
    extend: {
      resolutions: ['720p'],
      tiers: ['standard', 'fast'],
      maxSourceSeconds: VERTEX_EXTEND_MAX_SOURCE_SECONDS,
    },
  };
}

/** The models a route may name (each has a price in content/provider-costs.json). */
export const VERTEX_ROUTE_MODELS = [STANDARD, FAST, 'veo-3.1-lite-generate-001'] as const;

/** What a job is billed as: the model it runs on. */
export const vertexBilledModel = (model: string, tier: Tier): string =>
  model === STANDARD && tier === 'fast' ? FAST : model;

/** The model id a job is sent to. */
export function vertexTarget(input: VideoJobInput): string {
  return input.model === STANDARD && input.options.tier === 'fast' ? FAST : input.model;
}
