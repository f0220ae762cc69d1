// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Video Effects */
export const effects_landing_crumb_effects = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频特效' : 'Video Effects';
