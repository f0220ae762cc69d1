// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** synchronized sound */
export const home_fact_audio_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '同步音效' : 'synchronized sound';
