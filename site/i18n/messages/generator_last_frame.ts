// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Last frame (optional) */
export const generator_last_frame = (locale: Locale): string =>
  locale === 'zh-CN' ? '尾帧（可选）' : 'Last frame (optional)';
