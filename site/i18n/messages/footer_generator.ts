// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** AI Video Generator */
export const footer_generator = (locale: Locale): string =>
  locale === 'zh-CN' ? 'AI 视频生成器' : 'AI Video Generator';
