// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Videos you generate appear here once they are ready. */
export const history_empty_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '你生成的视频完成后会显示在这里。'
    : 'Videos you generate appear here once they are ready.';
