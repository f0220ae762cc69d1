// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** See samples and tips */
export const effects_card_guide = (locale: Locale): string =>
  locale === 'zh-CN' ? '查看示例和技巧' : 'See samples and tips';
