// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** : {title} */
export const effects_sample_use_prompt_for = (
  locale: Locale,
  p: { title: string | number },
): string => (locale === 'zh-CN' ? '：' + String(p.title) : ': ' + String(p.title));
