// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Please login to generate videos */
export const generator_login_prompt = (locale: Locale): string =>
  locale === 'zh-CN' ? '请登录后生成视频' : 'Please login to generate videos';
