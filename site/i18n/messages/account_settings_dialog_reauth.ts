// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** This cannot be undone. For your safety, closing needs a sign-in from the last {minutes} minutes: if you signed in earlier, sign in again first. */
export const account_settings_dialog_reauth = (
  locale: Locale,
  p: { minutes: string | number },
): string =>
  locale === 'zh-CN'
    ? '此操作无法撤销。为了账户安全，注销需要在最近 ' +
      String(p.minutes) +
      ' 分钟内登录过：如果你较早前登录，请先重新登录。'
    : 'This cannot be undone. For your safety, closing needs a sign-in from the last ' +
      String(p.minutes) +
      ' minutes: if you signed in earlier, sign in again first.';
