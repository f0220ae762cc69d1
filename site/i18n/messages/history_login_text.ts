// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Your history keeps every video you have generated, ready to watch and download. */
export const history_login_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '历史记录会保存你生成的每个视频，随时可以观看和下载。'
    : 'Your history keeps every video you have generated, ready to watch and download.';
