// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** {ms} ms */
export const apiaccess_attempt_duration = (locale: Locale, p: { ms: string | number }): string =>
  locale === 'zh-CN' ? String(p.ms) + ' 毫秒' : String(p.ms) + ' ms';
