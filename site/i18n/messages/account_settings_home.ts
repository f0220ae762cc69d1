// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Go to the home page */
export const account_settings_home = (locale: Locale): string =>
  locale === 'zh-CN' ? '返回首页' : 'Go to the home page';
