// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** You have no API keys yet. */
export const apiaccess_keys_empty = (locale: Locale): string =>
  locale === 'zh-CN' ? '你还没有 API 密钥。' : 'You have no API keys yet.';
