// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Back */
export const billing_back = (locale: Locale): string => (locale === 'zh-CN' ? '返回' : 'Back');
