// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Then ask for the video until its status is completed, or let a webhook tell you: */
export const apiaccess_quick_poll = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '之后查询该视频，直到状态变为 completed，或者让 Webhook 通知你：'
    : 'Then ask for the video until its status is completed, or let a webhook tell you:';
