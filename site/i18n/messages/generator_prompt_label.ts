// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Prompt */
export const generator_prompt_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '提示词' : 'Prompt';
