// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** now */
export const pricing_cancel_now = (locale: Locale): string => (locale === 'zh-CN' ? '立即' : 'now');
