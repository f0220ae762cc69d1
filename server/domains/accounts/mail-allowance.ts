/**
 * How many account mails one address receives (issue 34, finding 5): anyone may ask us to mail
 * an address (a sign-up, a sign-in to an unconfirmed account, a password reset), and the
 * per-client rate limit does not protect its owner from many clients. So every such mail draws on
 * one budget per address: MAILS_PER_ADDRESS an hour, counted from the first; past it, nothing is
 * mailed and the answer stays the one a mailed request gets. The count is a row of
 * rate_limit_hits (core/rate-limit-store.ts), so every instance on the database shares it and the
 * hourly cleanup removes it; its key holds a hash of the address, never the address.
 */
import { createHash } from 'node:crypto';
import type { DbOrTx } from '../../core/db.ts';
import { countHit } from '../../core/rate-limit-store.ts';

/** Mails one address may receive per window: enough for a typo and a retry or two. */
const MAILS_PER_ADDRESS = 3;
const WINDOW_MS = 60 * 60 * 1000;

const addressKey = (email: string) => `mail-to:${createHash('sha256').update(email).digest('hex')}`;

/** Counts one mail to `email` (normalized); false when its hourly budget is spent. */
export async function takeMailAllowance(db: DbOrTx, email: string): Promise<boolean> {
  const { current } = await countHit(db, addressKey(email), WINDOW_MS, {
    max: MAILS_PER_ADDRESS,
    restartWhenOver: false,
  });
  return current <= MAILS_PER_ADDRESS;
}
