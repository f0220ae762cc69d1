// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Standard Webhooks: verifying signatures */
export const apiaccess_quick_webhooks = (locale: Locale): string =>
  locale === 'zh-CN' ? 'Standard Webhooks：校验签名' : 'Standard Webhooks: verifying signatures';
