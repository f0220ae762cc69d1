// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This sample video is still being prepared. Reload the page in a minute to watch it. */
export const sample_pending = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '这个示例视频还在准备中。请过一分钟刷新页面后观看。'
    : 'This sample video is still being prepared. Reload the page in a minute to watch it.';
