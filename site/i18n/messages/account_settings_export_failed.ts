// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Could not download your data. Check your connection and try again. */
export const account_settings_export_failed = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '无法下载你的数据。请检查网络连接后重试。'
    : 'Could not download your data. Check your connection and try again.';
