// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Google */
export const account_settings_method_google = (locale: Locale): string =>
  locale === 'zh-CN' ? 'Google' : 'Google';
