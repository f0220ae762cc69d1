// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Rotate the signing secret of {url}? */
export const apiaccess_rotate_title = (locale: Locale, p: { url: string | number }): string =>
  locale === 'zh-CN'
    ? '轮换 ' + String(p.url) + ' 的签名密钥？'
    : 'Rotate the signing secret of ' + String(p.url) + '?';
