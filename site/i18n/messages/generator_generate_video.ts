// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generate Video */
export const generator_generate_video = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成视频' : 'Generate Video';
