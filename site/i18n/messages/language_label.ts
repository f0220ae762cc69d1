// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Language */
export const language_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '语言' : 'Language';
