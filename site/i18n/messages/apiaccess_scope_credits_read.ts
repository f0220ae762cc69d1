// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** read your balance and price quotes */
export const apiaccess_scope_credits_read = (locale: Locale): string =>
  locale === 'zh-CN' ? '读取你的余额和报价' : 'read your balance and price quotes';
