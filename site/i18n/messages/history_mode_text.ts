// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Text to Video */
export const history_mode_text = (locale: Locale): string =>
  locale === 'zh-CN' ? '文生视频' : 'Text to Video';
