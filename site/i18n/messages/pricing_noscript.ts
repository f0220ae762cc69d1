// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to subscribe or buy credits. */
export const pricing_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请启用 JavaScript 以订阅或购买积分。'
    : 'Turn on JavaScript to subscribe or buy credits.';
