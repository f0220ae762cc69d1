// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Result */
export const generator_result_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成结果' : 'Result';
