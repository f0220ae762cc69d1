// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Active */
export const apiaccess_key_active = (locale: Locale): string =>
  locale === 'zh-CN' ? '有效' : 'Active';
