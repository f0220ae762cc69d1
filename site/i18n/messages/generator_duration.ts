// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Duration {seconds}s */
export const generator_duration = (locale: Locale, p: { seconds: string | number }): string =>
  locale === 'zh-CN' ? '时长 ' + String(p.seconds) + ' 秒' : 'Duration ' + String(p.seconds) + 's';
