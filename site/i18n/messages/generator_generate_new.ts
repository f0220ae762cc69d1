// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generate New */
export const generator_generate_new = (locale: Locale): string =>
  locale === 'zh-CN' ? '再生成一个' : 'Generate New';
