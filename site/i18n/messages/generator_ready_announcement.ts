// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your video is ready. */
export const generator_ready_announcement = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频已生成。' : 'Your video is ready.';
