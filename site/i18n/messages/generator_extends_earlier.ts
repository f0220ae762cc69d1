// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** an earlier video */
export const generator_extends_earlier = (locale: Locale): string =>
  locale === 'zh-CN' ? '之前的视频' : 'an earlier video';
