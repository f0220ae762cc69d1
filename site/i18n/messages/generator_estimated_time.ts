// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** 5-8 minutes */
export const generator_estimated_time = (locale: Locale): string =>
  locale === 'zh-CN' ? '5-8 分钟' : '5-8 minutes';
