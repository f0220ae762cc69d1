// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** New API key */
export const apiaccess_keys_form_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '新建 API 密钥' : 'New API key';
