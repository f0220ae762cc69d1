// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Loading the video… */
export const generator_extending_loading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在读取视频…' : 'Loading the video…';
