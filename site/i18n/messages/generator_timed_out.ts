// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video generation timed out, please try again later */
export const generator_timed_out = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '视频生成超时，请稍后重试'
    : 'Video generation timed out, please try again later';
