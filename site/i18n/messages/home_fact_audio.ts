// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Audio */
export const home_fact_audio = (locale: Locale): string => (locale === 'zh-CN' ? '音频' : 'Audio');
