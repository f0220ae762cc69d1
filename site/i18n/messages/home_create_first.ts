// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Create your first video */
export const home_create_first = (locale: Locale): string =>
  locale === 'zh-CN' ? '创作你的第一个视频' : 'Create your first video';
