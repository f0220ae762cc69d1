/**
 * Sends the receipts outbox (outbox.ts) through the app's mailer, after the commit of the money
 * event each receipt reports (issue 37, item 3). Every instance runs one:
 *
 * - A sender claims a few due receipts with FOR UPDATE SKIP LOCKED and holds them for a lease
 *   (repository.ts claimDue): two senders never hold one receipt at once, and only the holder's
 *   outcome is written, so a receipt is mailed once.
 * - Woken the moment a receipt commits in this process (a customer has it within seconds); it
 *   also looks every few seconds, which finds receipts another instance wrote, and those left
 *   when a process died between the commit and the send (mailed once, on the next look).
 * - A failed send is retried after RETRY_FIRST_MS × 4^(attempt − 1), at most RETRY_MAX_MS, for
 *   as long as it takes: a receipt is never dropped.
 *
 * A process that dies after claiming leaves its receipts held until the lease passes (longer than
 * an SMTP send can take), then another sender mails them.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../core/db.ts';
import type { Mailer } from '../../../core/mailer.ts';
import { createOutboxPoller } from '../../../core/outbox-poller.ts';
import { onReceiptCommitted } from './outbox.ts';
import * as repo from './repository.ts';

const SECOND_MS = 1000;
/** How long a claimed receipt is held: past the SMTP transport's own timeouts. */
export const RECEIPT_LEASE_MS = 15 * 60 * SECOND_MS;
const RETRY_FIRST_MS = 60 * SECOND_MS;
const RETRY_MAX_MS = 6 * 60 * 60 * SECOND_MS;
/** Receipts one look claims and sends together. */
const BATCH = 10;
/** How long an idle sender waits before it looks again (unless woken by a commit). */
const IDLE_POLL_MS = 5 * SECOND_MS;
/** An address no mail can reach. */
const UNREACHABLE = /\.invalid$/i;

/** The wait before attempt `attempt + 1` after `attempt` failed (1-based). */
export function receiptRetryDelayMs(attempt: number): number {
  return Math.min(RETRY_FIRST_MS * 4 ** (attempt - 1), RETRY_MAX_MS);
}

export function createReceiptSender(deps: {
  db: Db;
  mailer: Mailer;
  /** config.publicSiteUrl: the receipts' links. */
  siteUrl: string;
  log: FastifyBaseLogger;
  now?: (() => Date) | undefined;
}) {
  const { db, mailer, siteUrl, log } = deps;
  const now = deps.now ?? (() => new Date());
  // React Email loads with the first receipt, not with the app.
  const template = () => import('./template.ts');

  async function send(claim: repo.ClaimedReceipt): Promise<void> {
    // A closed account keeps an address at the reserved .invalid domain (RFC 2606): no mail can
    // reach it, so its receipts are settled unsent instead of retried for ever.
    if (UNREACHABLE.test(claim.email)) {
      await repo.markSent(db, claim, null, 'not sent: the account was closed');
      return;
    }
    try {
      const { renderReceiptEmail } = await template();
      const email = await renderReceiptEmail({
        payload: claim.payload,
        locale: claim.locale,
        receiptNumber: claim.receiptNumber,
        siteUrl,
      });
      await mailer.send({ to: claim.email, ...email });
    } catch (err) {
      const retryAt = new Date(now().getTime() + receiptRetryDelayMs(claim.attempt));
      log.warn({ err, receipt: claim.receiptNumber, retryAt }, 'receipt email failed; will retry');
      await repo.markFailed(db, claim, retryAt, err instanceof Error ? err.message : String(err));
      return;
    }
    if (!(await repo.markSent(db, claim, now()))) {
      log.warn({ receipt: claim.receiptNumber }, 'receipt email sent after its hold had passed');
    }
  }

  const poller = createOutboxPoller({
    claim: (at, leaseUntil, batch) => repo.claimDue(db, at, leaseUntil, batch),
    handle: send,
    leaseMs: RECEIPT_LEASE_MS,
    batch: BATCH,
    idleMs: IDLE_POLL_MS,
    now,
    log,
    what: 'receipt email',
    describe: (claim) => ({ receipt: claim.receiptNumber }),
  });
  let unsubscribe: (() => void) | null = null;

  return {
    /** Polls until stop(), and wakes when a receipt commits in this process. */
    start(): void {
      unsubscribe ??= onReceiptCommitted(poller.wake);
      poller.start();
    },
    /** Stops polling and waits for the sends in flight. */
    async stop(): Promise<void> {
      unsubscribe?.();
      unsubscribe = null;
      await poller.stop();
    },
    runOnce: poller.runOnce,
  };
}

export type ReceiptSender = ReturnType<typeof createReceiptSender>;
