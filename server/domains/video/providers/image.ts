/** The first frame as each provider takes it inline: a data URI (fal, Replicate) or base64. */
import type { VideoJobInput } from './types.ts';

export const dataUri = (image: NonNullable<VideoJobInput['image']>): string =>
  `data:${image.mimeType};base64,${image.data.toString('base64')}`;
