// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Billed once a year at the yearly price. Credits are still added every month, and you can cancel at any time. */
export const pricing_note_yearly = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '按年价每年付费一次。积分仍每月发放，可随时取消。'
    : 'Billed once a year at the yearly price. Credits are still added every month, and you can cancel at any time.';
