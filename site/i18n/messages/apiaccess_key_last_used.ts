// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Last used */
export const apiaccess_key_last_used = (locale: Locale): string =>
  locale === 'zh-CN' ? '最近使用' : 'Last used';
