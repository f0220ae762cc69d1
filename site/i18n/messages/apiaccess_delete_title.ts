// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Delete the endpoint {url}? */
export const apiaccess_delete_title = (locale: Locale, p: { url: string | number }): string =>
  locale === 'zh-CN'
    ? '删除端点 ' + String(p.url) + '？'
    : 'Delete the endpoint ' + String(p.url) + '?';
