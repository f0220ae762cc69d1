// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Type a whole number of credits, 1 or more. */
export const apiaccess_hooks_threshold_invalid = (locale: Locale): string =>
  locale === 'zh-CN' ? '请输入不小于 1 的整数积分。' : 'Type a whole number of credits, 1 or more.';
