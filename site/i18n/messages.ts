// Compiled from messages/*.json by `npm run messages`; edit those, not this.
// tests/unit/messages.test.ts fails while the compiled files are stale.
export * from './messages/_account.ts';
export * from './messages/_apiaccess.ts';
export * from './messages/_billing.ts';
export * from './messages/_blog.ts';
export * from './messages/_credits.ts';
export * from './messages/_download.ts';
export * from './messages/_effects.ts';
export * from './messages/_faq.ts';
export * from './messages/_footer.ts';
export * from './messages/_gallery.ts';
export * from './messages/_generator.ts';
export * from './messages/_header.ts';
export * from './messages/_history.ts';
export * from './messages/_home.ts';
export * from './messages/_language.ts';
export * from './messages/_legal.ts';
export * from './messages/_loading.ts';
export * from './messages/_login.ts';
export * from './messages/_mailbox.ts';
export * from './messages/_nav.ts';
export * from './messages/_pricing.ts';
export * from './messages/_sample.ts';
export * from './messages/_skip.ts';
