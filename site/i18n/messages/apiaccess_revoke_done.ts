// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The key “{name}” was revoked. */
export const apiaccess_revoke_done = (locale: Locale, p: { name: string | number }): string =>
  locale === 'zh-CN'
    ? '密钥“' + String(p.name) + '”已吊销。'
    : 'The key “' + String(p.name) + '” was revoked.';
