/**
 * The receipt email as a React component, rendered to HTML by React Email (@react-email/*): its
 * components write the table layout and inline styles mail clients need. Written with
 * createElement: the server runs TypeScript by type stripping, which has no JSX. Loaded on first
 * use (sender.ts, routes.ts), so a start does not load React's server renderer.
 */
import { createElement as h, type CSSProperties } from 'react';
import { render } from '@react-email/render';
import { Body } from '@react-email/body';
import { Column } from '@react-email/column';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { Row } from '@react-email/row';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { receiptText, receiptView, type ReceiptInput, type ReceiptView } from './view.ts';

const font =
  '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", Arial, sans-serif';
const styles = {
  body: { backgroundColor: '#f4f4f5', fontFamily: font, margin: 0, padding: '24px 0' },
  container: {
    backgroundColor: '#ffffff',
    borderRadius: '8px',
    maxWidth: '560px',
    padding: '32px 28px',
  },
  brand: { color: '#52525b', fontSize: '14px', fontWeight: 600, margin: '0 0 8px' },
  title: { color: '#18181b', fontSize: '22px', lineHeight: '30px', margin: '0 0 12px' },
  text: { color: '#27272a', fontSize: '15px', lineHeight: '24px', margin: '0 0 16px' },
  label: { color: '#52525b', fontSize: '14px', padding: '6px 12px 6px 0', verticalAlign: 'top' },
  value: {
    color: '#18181b',
    fontSize: '14px',
    fontWeight: 600,
    padding: '6px 0',
    textAlign: 'right',
  },
  hr: { borderColor: '#e4e4e7', margin: '20px 0' },
  link: { color: '#4338ca', fontSize: '14px', textDecoration: 'underline' },
  footer: { color: '#71717a', fontSize: '12px', lineHeight: '18px', margin: '16px 0 0' },
} satisfies Record<string, CSSProperties>;

/** The receipt email of a view (view.ts). */
export function ReceiptEmail({ view }: { view: ReceiptView }) {
  return h(
    Html,
    { lang: view.locale },
    h(Head, null, h('title', null, view.subject)),
    h(Preview, null, view.intro),
    h(
      Body,
      { style: styles.body },
      h(
        Container,
        { style: styles.container },
        h(Text, { style: styles.brand }, view.brand),
        h(Heading, { as: 'h1', style: styles.title }, view.title),
        h(Text, { style: styles.text }, view.intro),
        h(
          Section,
          null,
          ...view.rows.map((row) =>
            h(Row, {
              key: row.label,
              children: [
                h(Column, { key: 'label', style: styles.label }, row.label),
                h(Column, { key: 'value', style: styles.value }, row.value),
              ],
            }),
          ),
        ),
        view.note ? h(Text, { style: { ...styles.text, margin: '16px 0 0' } }, view.note) : null,
        h(Hr, { style: styles.hr }),
        h(
          Text,
          { style: { ...styles.text, margin: 0 } },
          ...view.links.flatMap((link, i) => [
            i > 0 ? ' · ' : null,
            h(Link, { key: link.href, href: link.href, style: styles.link }, link.label),
          ]),
        ),
        h(Text, { style: styles.footer }, view.footer),
      ),
    ),
  );
}

export interface RenderedReceipt {
  subject: string;
  html: string;
  text: string;
}

/** A receipt's subject, HTML part and plain-text part, in its language. */
export async function renderReceiptEmail(input: ReceiptInput): Promise<RenderedReceipt> {
  const view = receiptView(input);
  return {
    subject: view.subject,
    html: await render(h(ReceiptEmail, { view })),
    text: receiptText(view),
  };
}
