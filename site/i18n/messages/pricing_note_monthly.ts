// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Billed monthly. Credits are added every month, and you can cancel at any time. */
export const pricing_note_monthly = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '按月付费。积分每月发放，可随时取消。'
    : 'Billed monthly. Credits are added every month, and you can cancel at any time.';
