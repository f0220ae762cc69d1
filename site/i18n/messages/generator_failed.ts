// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video generation failed, please try again */
export const generator_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频生成失败，请重试' : 'Video generation failed, please try again';
