// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generate again with these settings */
export const generator_again_with_settings = (locale: Locale): string =>
  locale === 'zh-CN' ? '用这些设置再生成' : 'Generate again with these settings';
