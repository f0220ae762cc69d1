// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your completed videos, newest first. Watch or download any of them. */
export const history_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你已完成的视频，最新的在前，可随时观看或下载。'
    : 'Your completed videos, newest first. Watch or download any of them.';
