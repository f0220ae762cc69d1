// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Saved to your  */
export const generator_saved_before = (locale: Locale): string =>
  locale === 'zh-CN' ? '已保存到你的' : 'Saved to your ';
