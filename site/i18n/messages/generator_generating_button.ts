// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generating… */
export const generator_generating_button = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成中…' : 'Generating…';
