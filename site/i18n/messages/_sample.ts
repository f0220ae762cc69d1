// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { sample_pending } from './sample_pending.ts';
