/**
 * Sample clips made at build time by the local video renderer (server/domains/site-build/
 * samples.ts) from the prompts in content/effects.json and content/landings/*.json. Every
 * release holds `/samples/<id>.mp4` and its 1280×720 JPEG poster `/samples/<id>.jpg`.
 */
import { VIDEO_SECONDS } from '../../../shared/video.ts';

/** The renderer's frame size; pages give it to <img> and <video> so nothing shifts on load. */
export const SAMPLE_WIDTH = 1280;
export const SAMPLE_HEIGHT = 720;
/** A clip's length as an ISO 8601 duration (VideoObject.duration): PT8S. */
export const SAMPLE_DURATION = `PT${VIDEO_SECONDS}S`;

export function sampleVideoPath(id: string): string {
  return `/samples/${id}.mp4`;
}

export function samplePosterPath(id: string): string {
  return `/samples/${id}.jpg`;
}
