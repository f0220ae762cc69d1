// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Download my data */
export const account_settings_export_button = (locale: Locale): string =>
  locale === 'zh-CN' ? '下载我的数据' : 'Download my data';
