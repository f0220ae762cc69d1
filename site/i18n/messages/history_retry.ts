// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Retry */
export const history_retry = (locale: Locale): string => (locale === 'zh-CN' ? '重试' : 'Retry');
