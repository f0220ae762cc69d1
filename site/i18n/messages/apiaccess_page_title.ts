// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** API keys and webhooks | {brand} */
export const apiaccess_page_title = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? 'API 密钥与 Webhook | ' + String(p.brand)
    : 'API keys and webhooks | ' + String(p.brand);
