// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your videos */
export const history_results_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的视频' : 'Your videos';
