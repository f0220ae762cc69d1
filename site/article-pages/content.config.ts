/** The article builds read the same posts collection as the site (site/content.config.ts). */
export { collections } from '../content.config.ts';
