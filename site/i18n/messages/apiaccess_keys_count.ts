// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {count} of {max} keys in use */
export const apiaccess_keys_count = (
  locale: Locale,
  p: { count: string | number; max: string | number },
): string =>
  locale === 'zh-CN'
    ? '已使用 ' + String(p.count) + ' / ' + String(p.max) + ' 个密钥'
    : String(p.count) + ' of ' + String(p.max) + ' keys in use';
