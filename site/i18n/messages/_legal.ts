// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { legal_updated } from './legal_updated.ts';
