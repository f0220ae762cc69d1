// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sign in to create API keys and register webhooks. */
export const apiaccess_sign_in_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '登录后即可创建 API 密钥并登记 Webhook。'
    : 'Sign in to create API keys and register webhooks.';
