// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Negative prompt */
export const generator_negative_prompt = (locale: Locale): string =>
  locale === 'zh-CN' ? '反向提示词' : 'Negative prompt';
