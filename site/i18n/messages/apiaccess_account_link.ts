// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Manage API keys */
export const apiaccess_account_link = (locale: Locale): string =>
  locale === 'zh-CN' ? '管理 API 密钥' : 'Manage API keys';
