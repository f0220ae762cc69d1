// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Closing your account cannot be undone. When you close it: */
export const account_settings_close_lead = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '注销账户后无法恢复。注销时：'
    : 'Closing your account cannot be undone. When you close it:';
