/**
 * Issue 37, item 3: the receipts outbox is mailed after the commit, once. A process that dies
 * between the commit and the send leaves the receipt to the next run, which mails it once; one
 * that dies holding a claim leaves it until the lease passes; two senders never mail one receipt
 * twice; a failed send is retried later.
 */
import { eq } from 'drizzle-orm';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mail, Mailer } from '../../server/core/mailer.ts';
import type { MoneyEvent } from '../../server/contracts/money-events.ts';
import { receiptEmails, users } from '../../server/db/schema.ts';
import { writeReceipt } from '../../server/domains/billing/receipts/outbox.ts';
import { claimDue } from '../../server/domains/billing/receipts/repository.ts';
import {
  createReceiptSender,
  RECEIPT_LEASE_MS,
  receiptRetryDelayMs,
} from '../../server/domains/billing/receipts/sender.ts';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import { mailParts } from '../helpers/mail-parts.ts';
import { outboxMailsTo } from '../helpers/outbox.ts';

/** A mailer that keeps what it is given (and can be made slow or failing). */
function capturingMailer(opts: { delayMs?: number; failFirst?: number } = {}) {
  const sent: Mail[] = [];
  let failures = opts.failFirst ?? 0;
  const mailer: Mailer = {
    async send(mail) {
      if (opts.delayMs) await sleep(opts.delayMs);
      if (failures > 0) {
        failures -= 1;
        throw new Error('SMTP 451: try again later');
      }
      sent.push(mail);
    },
  };
  return { mailer, sent };
}

const numberOf = (mail: Pick<Mail, 'subject'>) => /R-\d+/.exec(mail.subject)![0];

describe.each(databaseKinds)('the receipts sender on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  const db = () => t.app.database.db;
  const sender = (mailer: Mailer, now?: () => Date) =>
    createReceiptSender({ db: db(), mailer, siteUrl: t.config.publicSiteUrl, log: t.app.log, now });

  /** `count` receipts of packs for a new user, written as the billing paths write them. */
  async function receiptsFor(email: string, count: number) {
    const user = await signInLocal(t.app, email);
    await db().transaction(async (tx) => {
      for (let i = 0; i < count; i++) {
        const event: MoneyEvent = {
          kind: 'payment',
          userId: user.user.id,
          checkoutId: `cs_sender_${email}_${i}`,
          item: { type: 'credits', id: 'starter' },
          amountCents: 1990,
          currency: 'usd',
          discountCents: 0,
          credits: 330,
          creditsBought: 330,
          locale: 'en',
          at: new Date(),
        };
        await writeReceipt(tx, event);
        // Recorded twice (a second path noticing the same payment): still one receipt.
        await writeReceipt(tx, event);
      }
    });
    return user;
  }

  it('a receipt committed before the process died is mailed once by the next run', async () => {
    const ann = await signInLocal(t.app, 'ann-crash@example.com');
    const res = await requestCheckout(t.app, ann.token, { type: 'credits', package_id: 'starter' });
    await submitLocalCheckout(t.app, (res.json() as { sessionId: string }).sessionId);
    // The payment committed; this process "dies" before its sender ran (tests never start it).
    expect(await outboxMailsTo(t, ann.user.email)).toHaveLength(0);
    const [row] = await db()
      .select()
      .from(receiptEmails)
      .where(eq(receiptEmails.userId, ann.user.id));
    expect(row).toMatchObject({ status: 'pending', attempts: 0, kind: 'payment' });

    // The next run (another process's sender on the same database) mails it, once.
    const next = capturingMailer();
    expect(await sender(next.mailer).runOnce()).toBeGreaterThanOrEqual(1);
    expect(next.sent.filter((m) => m.to === ann.user.email)).toHaveLength(1);
    await sender(next.mailer).runOnce();
    await t.app.receiptSender.runOnce();
    expect(next.sent.filter((m) => m.to === ann.user.email)).toHaveLength(1);
    expect(await outboxMailsTo(t, ann.user.email)).toHaveLength(0);
    const [after] = await db().select().from(receiptEmails).where(eq(receiptEmails.id, row!.id));
    expect(after).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(after!.sentAt).toBeInstanceOf(Date);
  });

  it('a sender that dies holding a claim leaves the receipt until the lease passes, then it is mailed once', async () => {
    const bob = await receiptsFor('bob-lease@example.com', 1);
    const at = new Date(Date.now() + 1); // a millisecond on, as below: now() keeps microseconds
    // The dying sender claimed it and never sent it.
    const claimed = await claimDue(db(), at, new Date(at.getTime() + RECEIPT_LEASE_MS), 50);
    expect(claimed.map((c) => c.email)).toContain(bob.user.email);
    const other = capturingMailer();
    await sender(other.mailer, () => new Date(at.getTime() + RECEIPT_LEASE_MS - 1000)).runOnce();
    expect(other.sent.filter((m) => m.to === bob.user.email)).toHaveLength(0);
    const later = () => new Date(at.getTime() + RECEIPT_LEASE_MS + 1000);
    await sender(other.mailer, later).runOnce();
    await sender(other.mailer, later).runOnce();
    expect(other.sent.filter((m) => m.to === bob.user.email)).toHaveLength(1);
  });

  it('two senders polling together never mail one receipt twice', async () => {
    const cy = await receiptsFor('cy-two-senders@example.com', 14);
    const shared = capturingMailer({ delayMs: 15 });
    const a = sender(shared.mailer);
    const b = sender(shared.mailer);
    const drain = async (s: typeof a) => {
      while ((await s.runOnce()) > 0);
    };
    await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
    const mine = shared.sent.filter((m) => m.to === cy.user.email).map(numberOf);
    expect(mine).toHaveLength(14);
    expect(new Set(mine).size).toBe(14);
    const rows = await db()
      .select()
      .from(receiptEmails)
      .where(eq(receiptEmails.userId, cy.user.id));
    expect(rows.every((r) => r.status === 'sent' && r.attempts === 1)).toBe(true);
  });

  it('the receipt the local mailer writes has a text part and an HTML part', async () => {
    const dee = await receiptsFor('dee-parts@example.com', 1);
    await t.app.receiptSender.runOnce();
    const [eml] = await outboxMailsTo(t, dee.user.email);
    expect(eml).toMatch(/Content-Type: multipart\/alternative; boundary="/);
    const mail = mailParts(eml!);
    expect(mail.text).toContain('$19.90');
    expect(mail.html).toContain('$19.90');
    expect(mail.html).toMatch(/^<!DOCTYPE html/);
  });

  it('a failed send is kept with its error and retried after the backoff', async () => {
    const eve = await receiptsFor('eve-retry@example.com', 1);
    const flaky = capturingMailer({ failFirst: 1 });
    // A millisecond on: PostgreSQL's now() keeps microseconds, so a receipt written in this same
    // millisecond would not yet be due at Date.now() (it flaked once on PostgreSQL).
    const start = new Date(Date.now() + 1);
    // Only this user's receipt is due for the flaky sender: the others were mailed above.
    await sender(flaky.mailer, () => start).runOnce();
    const [failed] = await db()
      .select()
      .from(receiptEmails)
      .where(eq(receiptEmails.userId, eve.user.id));
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed!.lastError).toContain('SMTP 451');
    expect(failed!.nextAttemptAt.getTime()).toBe(start.getTime() + receiptRetryDelayMs(1));
    const soon = () => new Date(start.getTime() + receiptRetryDelayMs(1) - 1000);
    await sender(flaky.mailer, soon).runOnce();
    expect(flaky.sent).toHaveLength(0);
    const after = () => new Date(start.getTime() + receiptRetryDelayMs(1) + 1000);
    await sender(flaky.mailer, after).runOnce();
    expect(flaky.sent.map((m) => m.to)).toEqual([eve.user.email]);
    expect(receiptRetryDelayMs(2)).toBe(4 * receiptRetryDelayMs(1));
    expect(receiptRetryDelayMs(50)).toBe(6 * 60 * 60 * 1000);
  });

  it('a receipt of an account closed before it went out is settled unsent, not retried for ever', async () => {
    const gus = await receiptsFor('gus-closed@example.com', 1);
    // Closing an account leaves an address at .invalid (domains/privacy), which no mail reaches.
    await db()
      .update(users)
      .set({ email: `deleted-${gus.user.id}@deleted.invalid` })
      .where(eq(users.id, gus.user.id));
    const closed = capturingMailer();
    await sender(closed.mailer).runOnce();
    expect(closed.sent.filter((m) => m.to.endsWith('.invalid'))).toHaveLength(0);
    const [row] = await db()
      .select()
      .from(receiptEmails)
      .where(eq(receiptEmails.userId, gus.user.id));
    expect(row).toMatchObject({ status: 'sent', sentAt: null });
    expect(row!.lastError).toContain('closed');
  });

  it('a started sender mails a receipt within seconds of the commit (woken, not polled)', async () => {
    const quick = capturingMailer();
    const running = sender(quick.mailer);
    running.start();
    try {
      // Let the first (empty) look finish, so the sender is idle and waiting.
      await sleep(200);
      const fay = await receiptsFor('fay-wake@example.com', 1);
      const started = Date.now();
      while (!quick.sent.some((m) => m.to === fay.user.email) && Date.now() - started < 4000) {
        await sleep(20);
      }
      expect(quick.sent.filter((m) => m.to === fay.user.email)).toHaveLength(1);
      // Woken by the commit: well before the idle poll (5 s) would have looked.
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await running.stop();
    }
  });
});
