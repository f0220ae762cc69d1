/**
 * The admin's email previews (issue 37, item 3): each receipt kind in each language, rendered
 * from sample data exactly as a customer receives it. Schema: server/contracts/email-previews.ts.
 */
import type { Locale } from '../locales.ts';
import type { Ok } from './common.ts';

/** What a receipt reports (server/db/money-schema.ts RECEIPT_KINDS). */
export const RECEIPT_KINDS = [
  'payment',
  'renewal',
  'refund',
  'dispute_won',
  'dispute_lost',
] as const;
export type ReceiptKind = (typeof RECEIPT_KINDS)[number];

export type EmailPreview = {
  kind: ReceiptKind;
  locale: Locale;
  subject: string;
  /** The HTML part, a whole document (shown in a sandboxed frame). */
  html: string;
  /** The plain-text part. */
  text: string;
};

/** `GET /api/admin/email-previews`. */
export type EmailPreviewsResponse = Ok<{ previews: EmailPreview[] }>;
