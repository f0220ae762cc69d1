// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generation mode */
export const generator_mode_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成模式' : 'Generation mode';
