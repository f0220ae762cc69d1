// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to {brand} to generate AI videos, see your history and manage credits. */
export const login_page_description = (locale: Locale, p: { brand: string | number }): string =>
  locale === 'zh-CN'
    ? '登录 ' + String(p.brand) + '，生成 AI 视频、查看历史记录并管理你的积分。'
    : 'Sign in to ' +
      String(p.brand) +
      ' to generate AI videos, see your history and manage credits.';
