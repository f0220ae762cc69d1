// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to generate videos, keep your history and buy credits. */
export const login_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '登录后即可生成视频、保存历史记录并购买积分。'
    : 'Sign in to generate videos, keep your history and buy credits.';
