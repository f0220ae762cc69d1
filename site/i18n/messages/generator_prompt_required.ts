// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please enter a prompt */
export const generator_prompt_required = (locale: Locale): string =>
  locale === 'zh-CN' ? '请输入提示词' : 'Please enter a prompt';
