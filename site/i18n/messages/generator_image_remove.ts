// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Remove */
export const generator_image_remove = (locale: Locale): string =>
  locale === 'zh-CN' ? '移除' : 'Remove';
