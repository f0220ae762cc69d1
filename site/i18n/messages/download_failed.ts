// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Download failed. Try again. */
export const download_failed = (locale: Locale): string =>
  locale === 'zh-CN' ? '下载失败，请重试。' : 'Download failed. Try again.';
