// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Use this prompt */
export const effects_sample_use_prompt = (locale: Locale): string =>
  locale === 'zh-CN' ? '使用此提示词' : 'Use this prompt';
