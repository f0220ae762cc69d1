// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Saving… */
export const account_reset_busy = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在保存…' : 'Saving…';
