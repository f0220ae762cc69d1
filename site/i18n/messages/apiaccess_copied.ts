// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Copied to the clipboard. */
export const apiaccess_copied = (locale: Locale): string =>
  locale === 'zh-CN' ? '已复制到剪贴板。' : 'Copied to the clipboard.';
