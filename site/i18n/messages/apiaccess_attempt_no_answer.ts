// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No answer */
export const apiaccess_attempt_no_answer = (locale: Locale): string =>
  locale === 'zh-CN' ? '无应答' : 'No answer';
