// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** How effects work */
export const effects_steps_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '特效怎么用' : 'How effects work';
