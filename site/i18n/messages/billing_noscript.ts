// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Turn on JavaScript to see your payments. */
export const billing_noscript = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '请开启 JavaScript 以查看你的付款。'
    : 'Turn on JavaScript to see your payments.';
