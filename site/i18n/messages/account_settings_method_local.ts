// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Local sign-in */
export const account_settings_method_local = (locale: Locale): string =>
  locale === 'zh-CN' ? '本地登录' : 'Local sign-in';
