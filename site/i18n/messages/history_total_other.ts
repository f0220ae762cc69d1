// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {count} videos */
export const history_total_other = (locale: Locale, p: { count: string | number }): string =>
  locale === 'zh-CN' ? String(p.count) + ' 个视频' : String(p.count) + ' videos';
