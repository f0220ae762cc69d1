// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Privacy */
export const footer_privacy = (locale: Locale): string =>
  locale === 'zh-CN' ? '隐私政策' : 'Privacy';
