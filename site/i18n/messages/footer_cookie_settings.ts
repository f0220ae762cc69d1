// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Cookie settings */
export const footer_cookie_settings = (locale: Locale): string =>
  locale === 'zh-CN' ? 'Cookie 设置' : 'Cookie settings';
