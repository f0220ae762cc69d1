// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Settings:  */
export const generator_settings_used = (locale: Locale): string =>
  locale === 'zh-CN' ? '设置：' : 'Settings: ';
