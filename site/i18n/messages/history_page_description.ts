// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Watch and download the AI videos you have generated with {brand}. */
export const history_page_description = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '观看并下载你用 ' + String(p.brand) + ' 生成的 AI 视频。'
    : 'Watch and download the AI videos you have generated with ' + String(p.brand) + '.';
