// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video Generation Failed */
export const generator_error_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频生成失败' : 'Video Generation Failed';
