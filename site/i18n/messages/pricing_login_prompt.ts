// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Log in to subscribe or buy credits. */
export const pricing_login_prompt = (locale: Locale): string =>
  locale === 'zh-CN' ? '登录后即可订阅或购买积分。' : 'Log in to subscribe or buy credits.';
