// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Revoke the key “{name}” */
export const apiaccess_key_revoke_named = (locale: Locale, p: { name: string | number }): string =>
  locale === 'zh-CN'
    ? '吊销密钥“' + String(p.name) + '”'
    : 'Revoke the key “' + String(p.name) + '”';
