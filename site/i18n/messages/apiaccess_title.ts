// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** API keys and webhooks */
export const apiaccess_title = (locale: Locale): string =>
  locale === 'zh-CN' ? 'API 密钥与 Webhook' : 'API keys and webhooks';
