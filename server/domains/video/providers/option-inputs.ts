/**
 * The inputs a job's options need (issue 35), checked by every hosted adapter before it sends
 * anything (and so before anything is billed): a last frame goes with image mode, reference
 * images with text mode and in the number the options say, an extension with its source video
 * and nothing else. A mismatch is our bug, never the customer's, so it is refused, not guessed.
 */
import type { VideoJobInput } from './types.ts';

/** What is wrong with the job's inputs for its options, or null when they match. */
export function optionInputProblem(input: VideoJobInput): string | null {
  const { options } = input;
  const refs = input.referenceImages ?? [];
  if (options.lastFrame !== (input.lastFrame !== undefined)) {
    return options.lastFrame
      ? 'last_frame is chosen but no last frame came'
      : 'a last frame came without the last_frame option';
  }
  if (options.lastFrame && input.mode !== 'image') return 'a last frame needs image mode';
  if (refs.length !== options.referenceImages) {
    return `reference_images is ${options.referenceImages} but ${refs.length} images came`;
  }
  if (refs.length > 0 && input.mode !== 'text') return 'reference images go with text mode only';
  if (options.extend !== (input.sourceVideo !== undefined)) {
    return options.extend
      ? 'extend is chosen but no source video came'
      : 'a source video came without extend';
  }
  if (options.extend && (options.lastFrame || refs.length > 0)) {
    return 'an extension takes no last frame and no reference images';
  }
  return null;
}
