// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not load your videos. Please try again. */
export const history_load_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法加载你的视频，请重试。'
    : 'Could not load your videos. Please try again.';
