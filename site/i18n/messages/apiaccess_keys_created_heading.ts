// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your new key “{name}” */
export const apiaccess_keys_created_heading = (
  locale: Locale,
  p: { name: string | number },
): string =>
  locale === 'zh-CN'
    ? '你的新密钥“' + String(p.name) + '”'
    : 'Your new key “' + String(p.name) + '”';
