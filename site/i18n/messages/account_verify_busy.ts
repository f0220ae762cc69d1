// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Confirming… */
export const account_verify_busy = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在确认…' : 'Confirming…';
