// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Revoke key */
export const apiaccess_revoke_confirm = (locale: Locale): string =>
  locale === 'zh-CN' ? '吊销密钥' : 'Revoke key';
