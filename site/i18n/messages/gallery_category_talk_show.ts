// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Talk Show */
export const gallery_category_talk_show = (locale: Locale): string =>
  locale === 'zh-CN' ? '脱口秀' : 'Talk Show';
