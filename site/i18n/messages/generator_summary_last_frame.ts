// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Last frame */
export const generator_summary_last_frame = (locale: Locale): string =>
  locale === 'zh-CN' ? '尾帧' : 'Last frame';
