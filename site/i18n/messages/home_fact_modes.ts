// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 2 modes */
export const home_fact_modes = (locale: Locale): string =>
  locale === 'zh-CN' ? '2 种模式' : '2 modes';
