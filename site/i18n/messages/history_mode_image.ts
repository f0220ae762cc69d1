// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Image to Video */
export const history_mode_image = (locale: Locale): string =>
  locale === 'zh-CN' ? '图生视频' : 'Image to Video';
