// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { credits_one } from './credits_one.ts';
export { credits_other } from './credits_other.ts';
