// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Press the button to confirm that this address is yours. You will be signed in and taken to the home page. */
export const account_verify_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '点击下方按钮，确认这个邮箱地址属于你。确认后将自动登录并前往首页。'
    : 'Press the button to confirm that this address is yours. You will be signed in and taken to the home page.';
