// Compiled from messages/*.json by `npm run messages`; edit those, not this.
import type { Locale } from '../locales.ts';

/** Breadcrumb */
export const blog_breadcrumb_label = (locale: Locale): string =>
  locale === 'zh-CN' ? '面包屑导航' : 'Breadcrumb';
