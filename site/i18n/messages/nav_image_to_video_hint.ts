// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Bring a photo to life */
export const nav_image_to_video_hint = (locale: Locale): string =>
  locale === 'zh-CN' ? '让照片动起来' : 'Bring a photo to life';
