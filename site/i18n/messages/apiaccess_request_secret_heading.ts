// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your signing secret for webhook_url */
export const apiaccess_request_secret_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '你的 webhook_url 签名密钥' : 'Your signing secret for webhook_url';
