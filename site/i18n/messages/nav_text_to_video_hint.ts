// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Describe a scene in words */
export const nav_text_to_video_hint = (locale: Locale): string =>
  locale === 'zh-CN' ? '用文字描述一个场景' : 'Describe a scene in words';
