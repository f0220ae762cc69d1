// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** The endpoint {url} was deleted. */
export const apiaccess_delete_done = (locale: Locale, p: { url: string | number }): string =>
  locale === 'zh-CN'
    ? '端点 ' + String(p.url) + ' 已删除。'
    : 'The endpoint ' + String(p.url) + ' was deleted.';
