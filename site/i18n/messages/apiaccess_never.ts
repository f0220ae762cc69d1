// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Never */
export const apiaccess_never = (locale: Locale): string => (locale === 'zh-CN' ? '从未' : 'Never');
