// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your payments and receipts are shown once you sign in. */
export const billing_sign_in_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '登录后即可看到你的付款和收据。'
    : 'Your payments and receipts are shown once you sign in.';
