// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Describe how the image should move and sound. For example: She turns to the camera and smiles, hair moving in the wind, soft piano music. */
export const generator_placeholder_image = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '描述图片该如何动起来、有什么声音。例如：她转向镜头微笑，头发随风飘动，轻柔的钢琴声。'
    : 'Describe how the image should move and sound. For example: She turns to the camera and smiles, hair moving in the wind, soft piano music.';
