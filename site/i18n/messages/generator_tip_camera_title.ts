// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Camera and light */
export const generator_tip_camera_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '镜头与光线' : 'Camera and light';
