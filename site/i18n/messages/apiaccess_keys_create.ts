// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create key */
export const apiaccess_keys_create = (locale: Locale): string =>
  locale === 'zh-CN' ? '创建密钥' : 'Create key';
