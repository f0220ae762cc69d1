// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Try Now */
export const home_try_now = (locale: Locale): string =>
  locale === 'zh-CN' ? '立即试用' : 'Try Now';
