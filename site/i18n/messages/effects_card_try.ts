// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Try this effect */
export const effects_card_try = (locale: Locale): string =>
  locale === 'zh-CN' ? '试试这个特效' : 'Try this effect';
