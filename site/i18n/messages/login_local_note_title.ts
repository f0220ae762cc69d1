// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Local development sign-in. */
export const login_local_note_title = (locale: Locale): string =>
  locale === 'zh-CN' ? '本地开发登录。' : 'Local development sign-in.';
