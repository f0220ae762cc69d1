// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { loading_app } from './loading_app.ts';
