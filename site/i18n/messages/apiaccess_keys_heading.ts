// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** API keys */
export const apiaccess_keys_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? 'API 密钥' : 'API keys';
