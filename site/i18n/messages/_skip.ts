// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { skip_to_content } from './skip_to_content.ts';
