// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { faq_title_default } from './faq_title_default.ts';
