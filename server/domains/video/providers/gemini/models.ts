/**
 * What Gemini Omni on the Gemini API can do through our adapter (issue 35).
 *
 * Sources (checked 2026-12-07): @google/genai (googleapis/js-genai `src/gaos/models/interactions`:
 * VideoResponseFormat `aspect_ratio` 16:9 | 9:16, `resolution` 360p | 720p | 1080p | 4k, `duration`;
 * VideoConfig `task` text_to_video | image_to_video | reference_to_video | edit | extend;
 * GenerationConfig `seed`; input content blocks text, image, video); providers-brief §4 and §6:
 * gemini-omni-1.2-flash (GA 2026-11-05) makes 3 to 15 s, has no negative prompt, and edits or
 * extends over turns with `previous_interaction_id`.
 * Refused: a negative prompt (Omni has none), a last frame (no field for one), the fast tier (no
 * fast Omni model), and extension: Omni extends the clip of an earlier interaction of ours
 * (`previous_interaction_id`), which a job does not carry, and what an inline `extend` task
 * returns (the whole clip or only the new seconds) is not documented. gemini-omni-1.1-flash keeps
 * the spec's clip (no option was checked for it).
 */
import { MAX_REFERENCE_IMAGES } from '../../../../../shared/video-options.ts';
import { FIXED_MODEL, type ModelCapabilities } from '../capabilities.ts';

const OMNI_1_2 = 'gemini-omni-1.2-flash';

/** The models a route may name (each has a price in content/provider-costs.json). */
export const GEMINI_ROUTE_MODELS = [OMNI_1_2, 'gemini-omni-1.1-flash'] as const;

export function geminiModelCapabilities(model: string): ModelCapabilities {
  if (model !== OMNI_1_2) return FIXED_MODEL;
  return {
    modes: ['text', 'image'],
    aspectRatios: ['16:9', '9:16'],
    resolutions: ['720p', '1080p'],
    tiers: ['standard'],
    negativePrompt: false,
    seed: true,
    lastFrame: false,
    referenceImages: {
      max: MAX_REFERENCE_IMAGES,
      aspectRatios: ['16:9', '9:16'],
      resolutions: ['720p', '1080p'],
      tiers: ['standard'],
    },
    extend: null,
  };
}

/**
 * Our seed (0 … 2³²−1, Veo's range) as the Interactions API's `seed`, a protobuf int32: seeds
 * below 2³¹ go as they are, larger ones wrap, so the same seed is always the same number.
 */
export const int32Seed = (seed: number): number => seed % 2 ** 31;
