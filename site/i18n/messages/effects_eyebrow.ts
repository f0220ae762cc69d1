// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Effects and templates */
export const effects_eyebrow = (locale: Locale): string =>
  locale === 'zh-CN' ? '特效与模板' : 'Effects and templates';
