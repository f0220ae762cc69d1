// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Rotate the signing secret for webhook_url? */
export const apiaccess_request_rotate_title = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '轮换 webhook_url 的签名密钥？'
    : 'Rotate the signing secret for webhook_url?';
