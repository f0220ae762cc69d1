// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { footer_contact } from './footer_contact.ts';
export { footer_contact_role } from './footer_contact_role.ts';
export { footer_cookie_settings } from './footer_cookie_settings.ts';
export { footer_effects } from './footer_effects.ts';
export { footer_generator } from './footer_generator.ts';
export { footer_home } from './footer_home.ts';
export { footer_legal } from './footer_legal.ts';
export { footer_pricing } from './footer_pricing.ts';
export { footer_privacy } from './footer_privacy.ts';
export { footer_product } from './footer_product.ts';
export { footer_refund } from './footer_refund.ts';
export { footer_rights } from './footer_rights.ts';
export { footer_terms } from './footer_terms.ts';
