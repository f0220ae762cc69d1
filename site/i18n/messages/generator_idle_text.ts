// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Describe a scene, or add an image and say how it should move, then press Generate Video. You can watch and download the clip here when it is ready. */
export const generator_idle_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '描述一个场景，或添加一张图片并说明它如何动起来，然后点击“生成视频”。视频完成后可在这里观看和下载。'
    : 'Describe a scene, or add an image and say how it should move, then press Generate Video. You can watch and download the clip here when it is ready.';
