// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create keys for the {brand} API, register webhook endpoints and follow their deliveries. */
export const apiaccess_page_description = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN'
    ? '创建 ' + String(p.brand) + ' API 密钥，登记 Webhook 端点并查看其投递记录。'
    : 'Create keys for the ' +
      String(p.brand) +
      ' API, register webhook endpoints and follow their deliveries.';
