// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Uploading your image… */
export const generator_status_uploading = (locale: Locale): string =>
  locale === 'zh-CN' ? '正在上传图片…' : 'Uploading your image…';
