/** Site constants. content/site.json is the single source shared with the server. */
import site from '../../content/site.json' with { type: 'json' };

export const BRAND: string = site.brand;
/** Product slug (`veo3` by default); it names the generator route and the video models. */
export const PRODUCT: string = site.product;
export const PRODUCT_NAME: string = site.productName;
export const TAGLINE: string = site.tagline;
export const SITE_DESCRIPTION: string = site.description;
/** Contact mailboxes by role, e.g. `{ support: 'support@…', billing: 'billing@…' }`. */
export const MAILBOXES: Readonly<Record<string, string>> = site.mailboxes;

/** The generator page (spec 2 Routes: /text-to-{product}-video). */
export const GENERATOR_PATH = `/text-to-${PRODUCT}-video`;

/** Generator deep link for one mode; the page reads the mode from `?type=`. */
export function generatorHref(type: 'text' | 'image'): string {
  return `${GENERATOR_PATH}?type=${type}`;
}
