// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your videos are deleted and you are signed out everywhere. Thank you for using {brand}. */
export const account_settings_closed_text = (
  locale: Locale,
  p: { brand: string | number },
): string =>
  locale === 'zh-CN'
    ? '你的视频已删除，所有设备均已退出登录。感谢你使用 ' + String(p.brand) + '。'
    : 'Your videos are deleted and you are signed out everywhere. Thank you for using ' +
      String(p.brand) +
      '.';
