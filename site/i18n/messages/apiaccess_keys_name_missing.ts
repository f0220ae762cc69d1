// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Give the key a name. */
export const apiaccess_keys_name_missing = (locale: Locale): string =>
  locale === 'zh-CN' ? '请为密钥命名。' : 'Give the key a name.';
