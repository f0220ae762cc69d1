// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sound */
export const generator_tip_sound_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '声音' : 'Sound';
