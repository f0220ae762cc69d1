// Compiled from messages/*.json by `npm run messages`; edit those, not this.
export { mailbox_billing } from './mailbox_billing.ts';
export { mailbox_legal } from './mailbox_legal.ts';
export { mailbox_privacy } from './mailbox_privacy.ts';
export { mailbox_support } from './mailbox_support.ts';
