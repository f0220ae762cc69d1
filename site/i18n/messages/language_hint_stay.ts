// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Stay in Chinese */
export const language_hint_stay = (locale: Locale): string =>
  locale === 'zh-CN' ? '继续使用英文' : 'Stay in Chinese';
