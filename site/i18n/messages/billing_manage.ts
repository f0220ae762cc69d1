// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Manage billing */
export const billing_manage = (locale: Locale): string =>
  locale === 'zh-CN' ? '管理账单' : 'Manage billing';
