// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Downloading… */
export const generator_downloading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在下载…' : 'Downloading…';
