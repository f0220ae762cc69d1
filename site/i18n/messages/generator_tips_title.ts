// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Tips for a good prompt */
export const generator_tips_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '写好提示词的技巧' : 'Tips for a good prompt';
