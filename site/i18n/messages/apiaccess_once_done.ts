// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** I have saved it */
export const apiaccess_once_done = (locale: Locale): string =>
  locale === 'zh-CN' ? '我已保存' : 'I have saved it';
