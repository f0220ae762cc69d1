// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/**  and  */
export const login_legal_and = (locale: Locale): string =>
  locale === 'zh-CN' ? '》和《' : ' and ';
