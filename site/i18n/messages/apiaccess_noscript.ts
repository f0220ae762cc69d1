// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to manage your API keys and webhooks. */
export const apiaccess_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请开启 JavaScript 以管理 API 密钥和 Webhook。'
    : 'Turn on JavaScript to manage your API keys and webhooks.';
