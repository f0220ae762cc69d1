// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to manage your account. */
export const account_settings_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请启用 JavaScript 以管理你的账户。'
    : 'Turn on JavaScript to manage your account.';
