// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video History | {brand} */
export const history_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN' ? '视频历史记录 | ' + String(p.brand) : 'Video History | ' + String(p.brand);
