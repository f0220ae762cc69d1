// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Signing secret for webhook_url */
export const apiaccess_request_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? 'webhook_url 的签名密钥' : 'Signing secret for webhook_url';
