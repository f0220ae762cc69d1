// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Read this page in English */
export const language_switch_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '阅读本页的简体中文版' : 'Read this page in English';
