// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not delete the video. Check your connection and try again. */
export const history_delete_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法删除视频。请检查网络连接后重试。'
    : 'Could not delete the video. Check your connection and try again.';
