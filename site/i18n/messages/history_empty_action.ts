// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Generate a video */
export const history_empty_action = (locale: Locale): string =>
  locale === 'zh-CN' ? '生成视频' : 'Generate a video';
