// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Download */
export const generator_download = (locale: Locale): string =>
  locale === 'zh-CN' ? '下载' : 'Download';
