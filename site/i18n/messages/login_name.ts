// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Name */
export const login_name = (locale: Locale): string => (locale === 'zh-CN' ? '姓名' : 'Name');
