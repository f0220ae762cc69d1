// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Extending this video */
export const generator_extending_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '延长这个视频' : 'Extending this video';
