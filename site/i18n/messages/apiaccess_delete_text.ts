// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** No more events are sent to it, and deliveries still waiting for it are dropped. This cannot be undone. */
export const apiaccess_delete_text = (locale: Locale): string =>
  locale === 'zh-CN'
    ? '之后不再向它发送任何事件，尚在等待的投递也会被丢弃。此操作无法撤销。'
    : 'No more events are sent to it, and deliveries still waiting for it are dropped. This cannot be undone.';
