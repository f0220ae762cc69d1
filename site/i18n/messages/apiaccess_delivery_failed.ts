// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Failed */
export const apiaccess_delivery_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '失败' : 'Failed';
