/**
 * What a receipt says, in its customer's language, from its fixed payload: the title, the rows
 * (number, date, what was bought, price, discount, amount, credits) and the links. The HTML part
 * (template.ts) and the plain-text part show this one view, so both carry the same figures.
 * Amounts, counts and dates are formatted with Intl for the locale (en: $19.90, December 7, 2026;
 * zh-CN: US$19.90, 2026年12月7日), dates in UTC as the payment provider records them.
 */
import site from '../../../../content/site.json' with { type: 'json' };
import { PATH_PREFIXES, type Locale } from '../../../../shared/locales.ts';
import { msg } from '../../../core/api-messages.ts';
import type { ReceiptPayload } from './payload.ts';

export interface ReceiptInput {
  payload: ReceiptPayload;
  locale: Locale;
  receiptNumber: string;
  /** config.publicSiteUrl: the links' origin. */
  siteUrl: string;
}

export interface ReceiptView {
  locale: Locale;
  subject: string;
  brand: string;
  title: string;
  intro: string;
  /** A yearly plan's note (its credits come month by month); null otherwise. */
  note: string | null;
  rows: { label: string; value: string }[];
  links: { label: string; href: string }[];
  footer: string;
}

/** Minor units to a currency amount in the locale (USD, JPY: Intl knows the decimals). */
function formatMoney(cents: number, currency: string, locale: Locale): string {
  const code = currency.toUpperCase();
  const digits =
    new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return new Intl.NumberFormat(locale, { style: 'currency', currency: code }).format(
    cents / 10 ** digits,
  );
}

const formatDate = (iso: string, locale: Locale) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

const formatCount = (n: number, locale: Locale) => new Intl.NumberFormat(locale).format(n);

/** The receipt of `input`, in its language. */
export function receiptView({
  payload: p,
  locale,
  receiptNumber,
  siteUrl,
}: ReceiptInput): ReceiptView {
  const t = (text: ReturnType<typeof msg>) => text.render(locale);
  const money = (cents: number) => formatMoney(cents, p.currency, locale);
  const kind = p.kind;
  const buying = kind === 'payment' || kind === 'renewal';
  const item =
    p.item.type === 'credits'
      ? t(msg('receipts.item_pack', { name: p.item.name }))
      : t(
          msg('receipts.item_plan', { name: p.item.name, cycle: p.item.billingCycle ?? 'monthly' }),
        );
  const rows = [
    { label: t(msg('receipts.label_number')), value: receiptNumber },
    { label: t(msg('receipts.label_date')), value: formatDate(p.at, locale) },
    { label: t(msg('receipts.label_item', { kind })), value: item },
  ];
  if (buying && p.discountCents > 0) {
    const amount = money(p.discountCents);
    rows.push(
      { label: t(msg('receipts.label_price')), value: money(p.amountCents + p.discountCents) },
      {
        label: t(msg('receipts.label_discount')),
        value: p.promotionCode
          ? t(msg('receipts.discount_with_code', { amount, code: p.promotionCode }))
          : t(msg('receipts.discount_value', { amount })),
      },
    );
  }
  rows.push(
    { label: t(msg('receipts.label_amount', { kind })), value: money(p.amountCents) },
    { label: t(msg('receipts.label_credits', { kind })), value: formatCount(p.credits, locale) },
  );
  const title = t(msg('receipts.title', { kind }));
  const page = (path: string) => `${siteUrl}${PATH_PREFIXES[locale]}${path}`;
  return {
    locale,
    subject: t(msg('receipts.subject', { title, number: receiptNumber, brand: site.brand })),
    brand: site.brand,
    title,
    intro: t(msg('receipts.intro', { kind, amount: money(p.amountCents) })),
    note:
      buying && p.creditsBought > p.credits
        ? t(msg('receipts.yearly_note', { credits: formatCount(p.credits, locale) }))
        : null,
    rows,
    links: [
      { label: t(msg('receipts.link_history')), href: page('/video-history') },
      { label: t(msg('receipts.link_billing')), href: page('/account/billing') },
    ],
    footer: t(msg('receipts.footer', { email: site.mailboxes.billing })),
  };
}

/** Columns a label takes in a monospaced mail reader: CJK characters take two. */
const columns = (text: string) =>
  [...text].reduce(
    (n, ch) => n + (/[\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\uff00-\uff60]/.test(ch) ? 2 : 1),
    0,
  );

/** The plain-text part: the same view as the HTML part, line by line, values aligned. */
export function receiptText(view: ReceiptView): string {
  const label = (text: string) => `${text}:`;
  const width = Math.max(...view.rows.map((row) => columns(label(row.label))));
  const pad = (text: string) => text + ' '.repeat(width - columns(text) + 1);
  return [
    view.brand,
    '',
    view.title,
    '',
    view.intro,
    '',
    ...view.rows.map((row) => `${pad(label(row.label))}${row.value}`),
    ...(view.note ? ['', view.note] : []),
    '',
    ...view.links.map((link) => `${link.label}: ${link.href}`),
    '',
    view.footer,
    '',
  ].join('\n');
}
