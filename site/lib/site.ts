/** Site constants. content/site.json is the single source shared with the server. */
import site from '../../content/site.json' with { type: 'json' };
import siteZh from '../../content/zh-CN/site.json' with { type: 'json' };
import type { Locale } from '../../shared/locales.ts';
import { GENERATOR_PATH } from '../../shared/pages.ts';

export const BRAND: string = site.brand;
export const PRODUCT_NAME: string = site.productName;
const TAGLINE: string = site.tagline;
export const SITE_DESCRIPTION: string = site.description;
/** The tagline and the site's description in a language (content/zh-CN/site.json for Chinese). */
export function siteCopy(locale: Locale): { tagline: string; description: string } {
  return locale === 'zh-CN' ? siteZh : { tagline: TAGLINE, description: SITE_DESCRIPTION };
}
/** Contact mailboxes by role, e.g. `{ support: 'support@…', billing: 'billing@…' }`. */
export const MAILBOXES: Readonly<Record<string, string>> = site.mailboxes;

/** The generator page (spec 2 Routes: /text-to-{product}-video): a row of the page table. */
export { GENERATOR_PATH };

/** Generator deep link for one mode; the page reads the mode from `?type=`. */
export function generatorHref(type: 'text' | 'image'): string {
  return `${GENERATOR_PATH}?type=${type}`;
}
