// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Leave empty for a random seed. The same seed and prompt give a similar video. */
export const generator_seed_hint = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '留空则随机。相同的种子和提示词会生成相近的视频。'
    : 'Leave empty for a random seed. The same seed and prompt give a similar video.';
