// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Name */
export const apiaccess_keys_name = (locale: Locale): string =>
  locale === 'zh-CN' ? '名称' : 'Name';
