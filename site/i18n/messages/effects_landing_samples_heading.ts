// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Sample videos */
export const effects_landing_samples_heading = (locale: Locale): string =>
  locale === 'zh-CN' ? '示例视频' : 'Sample videos';
