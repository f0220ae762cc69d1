// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Language suggestion */
export const language_hint_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '语言建议' : 'Language suggestion';
