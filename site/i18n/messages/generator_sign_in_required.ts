// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please login before generating a video */
export const generator_sign_in_required = (locale: Locale): string =>
  locale === 'zh-CN' ? '请先登录再生成视频' : 'Please login before generating a video';
