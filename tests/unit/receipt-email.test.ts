/**
 * Issue 37, item 3: a receipt's figures in each language (Intl: currency, counts, UTC dates),
 * its source key per money event (one receipt per event), and its two parts through both mailers.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { describe, expect, it } from 'vitest';
import type { MoneyEvent } from '../../server/contracts/money-events.ts';
import { createOutboxMailer, createSmtpMailer } from '../../server/core/mailer.ts';
import {
  receiptPayload,
  receiptSourceKey,
  type ReceiptPayload,
} from '../../server/domains/billing/receipts/payload.ts';
import { renderReceiptEmail } from '../../server/domains/billing/receipts/template.ts';
import { receiptText, receiptView } from '../../server/domains/billing/receipts/view.ts';
import { mailParts } from '../helpers/mail-parts.ts';
import { RECEIPT_KINDS as DB_KINDS } from '../../server/db/money-schema.ts';
import { RECEIPT_KINDS as SHARED_KINDS } from '../../shared/api/email-previews.ts';

const at = new Date('2026-03-09T23:30:00Z');
const base = { userId: 'u1', currency: 'usd', locale: 'en' as const, at };
const item = { type: 'credits' as const, id: 'standard' };

const payment: MoneyEvent = {
  ...base,
  kind: 'payment',
  checkoutId: 'cs_1',
  item: { type: 'subscription', id: 'pro+', billingCycle: 'yearly' },
  amountCents: 86310,
  discountCents: 9590,
  promotionCode: 'Spring10',
  credits: 3370,
  creditsBought: 3370 * 12,
};

const view = (payload: ReceiptPayload, locale: 'en' | 'zh-CN') =>
  receiptView({ payload, locale, receiptNumber: 'R-1042', siteUrl: 'https://veo3studio.app' });

describe('receipt emails', () => {
  it.each<[MoneyEvent, string]>([
    [payment, 'checkout:cs_1'],
    [
      {
        ...base,
        kind: 'renewal',
        invoiceId: 'in_9',
        subscriptionId: 'sub_1',
        item,
        amountCents: 1,
        discountCents: 0,
        credits: 1,
        creditsBought: 1,
      },
      'invoice:in_9',
    ],
    [
      {
        ...base,
        kind: 'refund',
        refundId: 'ch_1:500',
        paymentKey: 'checkout:cs_1',
        item,
        amountCents: 500,
        creditsTakenBack: 10,
        creditsUnbought: 10,
      },
      'refund:ch_1:500',
    ],
    [
      {
        ...base,
        kind: 'dispute_won',
        disputeId: 'dp_1',
        paymentKey: 'checkout:cs_1',
        item,
        amountCents: 500,
        creditsHeld: 3,
        creditsUnbought: 0,
      },
      'dispute:dp_1:won',
    ],
    [
      {
        ...base,
        kind: 'dispute_lost',
        disputeId: 'dp_1',
        paymentKey: 'checkout:cs_1',
        item,
        amountCents: 500,
        creditsHeld: 3,
        creditsUnbought: 3,
      },
      'dispute:dp_1:lost',
    ],
  ])('event %# is keyed $1: one receipt per event', (event, key) => {
    expect(receiptSourceKey(event)).toBe(key);
  });

  it('names the same receipt kinds as the database allows', () => {
    expect([...SHARED_KINDS]).toEqual([...DB_KINDS]);
  });

  it('fixes what was bought, the amounts, the code and the credits when the event happens', () => {
    expect(receiptPayload(payment)).toEqual({
      kind: 'payment',
      item: { type: 'subscription', id: 'pro+', name: 'Pro+', billingCycle: 'yearly' },
      amountCents: 86310,
      currency: 'usd',
      discountCents: 9590,
      promotionCode: 'Spring10',
      credits: 3370,
      creditsBought: 40440,
      at: '2026-03-09T23:30:00.000Z',
      paymentKey: null,
    });
  });

  it.each([
    [
      'en' as const,
      [
        'R-1042',
        'March 9, 2026',
        'Pro+ plan, yearly',
        '$959.00',
        '−$95.90 (code Spring10)',
        '$863.10',
        '3,370',
      ],
      'https://veo3studio.app/video-history',
    ],
    [
      'zh-CN' as const,
      [
        'R-1042',
        '2026年3月9日',
        'Pro+ 套餐，年付',
        'US$959.00',
        '−US$95.90（优惠码 Spring10）',
        'US$863.10',
        '3,370',
      ],
      'https://veo3studio.app/zh/video-history',
    ],
  ])(
    'shows the figures in %s, the date in UTC, and links in that language',
    (locale, values, history) => {
      const v = view(receiptPayload(payment), locale);
      expect(v.rows.map((row) => row.value)).toEqual(values);
      expect(v.links[0]!.href).toBe(history);
      expect(v.note).not.toBeNull();
      const text = receiptText(v);
      for (const value of values) expect(text).toContain(value);
    },
  );

  it('formats a currency without minor units by its own rule (JPY)', () => {
    const v = view(
      { ...receiptPayload(payment), currency: 'jpy', amountCents: 1500, discountCents: 0 },
      'en',
    );
    expect(v.rows.find((row) => row.value.includes('¥'))?.value).toBe('¥1,500');
  });

  it('the HTML part escapes what it shows (a code is shown as text, never as markup)', async () => {
    const payload = { ...receiptPayload(payment), promotionCode: '<b>X</b>' };
    const email = await renderReceiptEmail({
      payload,
      locale: 'en',
      receiptNumber: 'R-1',
      siteUrl: 'https://veo3studio.app',
    });
    expect(email.html).not.toContain('<b>X</b>');
    expect(email.html).toContain('&lt;b&gt;X&lt;/b&gt;');
  });

  it('the local mailer writes the text and HTML parts as multipart/alternative', async () => {
    const dir = path.join(await mkdtemp(path.join(tmpdir(), 'receipt-')), 'outbox');
    const email = await renderReceiptEmail({
      payload: receiptPayload(payment),
      locale: 'zh-CN',
      receiptNumber: 'R-7',
      siteUrl: 'https://veo3studio.app',
    });
    await createOutboxMailer(dir, 'Veo3 Studio <billing@veo3studio.app>').send({
      to: 'amy@example.com',
      ...email,
    });
    const [file] = await readdir(dir);
    const mail = mailParts(await readFile(path.join(dir, file!), 'utf8'));
    expect(mail.subject).toBe(email.subject);
    expect(mail.subject).toContain('你的收据');
    expect(mail.text.trimEnd()).toBe(email.text.trimEnd());
    expect(mail.html).toBe(email.html);
  });

  it('SMTP sends both parts', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
        stream.on('end', () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    try {
      const mailer = await createSmtpMailer(`smtp://127.0.0.1:${port}`, 'billing@veo3studio.app');
      await mailer.send({
        to: 'amy@example.com',
        subject: 'R-1',
        text: 'plain',
        html: '<p>rich</p>',
      });
      expect(received[0]).toMatch(/Content-Type: multipart\/alternative/);
      expect(received[0]).toMatch(/Content-Type: text\/plain/);
      expect(received[0]).toMatch(/Content-Type: text\/html/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
