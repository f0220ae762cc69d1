// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/**  AI videos  */
export const home_title_middle = (locale: Locale): string =>
  locale === 'zh-CN' ? ' AI 视频，' : ' AI videos ';
