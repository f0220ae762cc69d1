// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This page is also in English. */
export const language_hint_text = (locale: Locale): string =>
  locale === 'zh-CN' ? '本页面有简体中文版。' : 'This page is also in English.';
