// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Skip to main content */
export const skip_to_content = (locale: Locale): string =>
  locale === 'zh-CN' ? '跳到主要内容' : 'Skip to main content';
