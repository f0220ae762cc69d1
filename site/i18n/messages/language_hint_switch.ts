// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Read in English */
export const language_hint_switch = (locale: Locale): string =>
  locale === 'zh-CN' ? '切换到中文' : 'Read in English';
