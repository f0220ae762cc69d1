// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { download_failed } from './download_failed.ts';
