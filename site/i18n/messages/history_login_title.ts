// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to see your videos */
export const history_login_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录后查看你的视频' : 'Sign in to see your videos';
