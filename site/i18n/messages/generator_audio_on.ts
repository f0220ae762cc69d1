// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Audio on */
export const generator_audio_on = (locale: Locale): string =>
  locale === 'zh-CN' ? '含音频' : 'Audio on';
