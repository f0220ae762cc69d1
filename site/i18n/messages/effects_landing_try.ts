// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Try it now */
export const effects_landing_try = (locale: Locale): string =>
  locale === 'zh-CN' ? '立即试用' : 'Try it now';
