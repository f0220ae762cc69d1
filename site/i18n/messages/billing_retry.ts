// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Try again */
export const billing_retry = (locale: Locale): string =>
  locale === 'zh-CN' ? '重试' : 'Try again';
