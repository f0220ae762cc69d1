// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Queued again, with the same webhook-id. */
export const apiaccess_delivery_resent = (locale: Locale): string =>
  locale === 'zh-CN' ? '已重新排队，webhook-id 不变。' : 'Queued again, with the same webhook-id.';
