// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Download your data */
export const account_settings_export_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '下载你的数据' : 'Download your data';
