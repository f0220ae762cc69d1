// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** New video */
export const history_new_video = (locale: Locale): string =>
  locale === 'zh-CN' ? '新建视频' : 'New video';
