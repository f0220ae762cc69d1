// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** the credits of a video were refunded */
export const apiaccess_event_video_refunded = (locale: Locale): string =>
  locale === 'zh-CN' ? '视频的积分已退还' : 'the credits of a video were refunded';
