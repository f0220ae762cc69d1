// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Showing {shown} of {total} videos */
export const gallery_status_all = (
  locale: Locale,
  p: { shown: string | number; total: string | number },
): string =>
  locale === 'zh-CN'
    ? '显示 ' + String(p.total) + ' 个视频中的 ' + String(p.shown) + ' 个'
    : 'Showing ' + String(p.shown) + ' of ' + String(p.total) + ' videos';
