/**
 * HTTP for receipts: a customer's own receipt as the HTML they were mailed (the billing page links
 * it), and the admin's previews of every receipt kind in both languages.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { currentUser } from '../../../core/auth.ts';
import type { Db } from '../../../core/db.ts';
import { notFound } from '../../../core/errors.ts';
import { msg } from '../../../core/api-messages.ts';
import { ErrorResponse } from '../../../contracts/common.ts';
import { EmailPreviewsResponse } from '../../../contracts/email-previews.ts';
import { isLocale } from '../../../../shared/locales.ts';
import type { ReceiptPayload } from './payload.ts';
import { findUserReceipt } from './repository.ts';
import { emailPreviews } from './samples.ts';

const ReceiptParams = Type.Object({
  receipt_number: Type.String({ minLength: 3, maxLength: 20, pattern: '^R-[0-9]{1,18}$' }),
});

/**
 * The receipt document's own policy: its inline styles and nothing else (no script, no frame,
 * no form), instead of the API answers' `default-src 'none'`, which would show it unstyled.
 */
const RECEIPT_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export async function receiptRoutes(fastify: FastifyInstance, opts: { db: Db; siteUrl: string }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, siteUrl } = opts;
  const tags = ['billing'];

  app.get(
    '/api/account/receipts/:receipt_number',
    {
      config: { access: 'user' },
      schema: {
        tags,
        summary: 'One of your receipts, as the HTML email it was sent as',
        params: ReceiptParams,
        response: {
          200: Type.String({ description: 'The receipt, an HTML document (text/html)' }),
          401: ErrorResponse,
          404: ErrorResponse,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const row = await findUserReceipt(db, user.id, request.params.receipt_number);
      // Someone else's receipt answers as one that does not exist.
      if (!row) throw notFound(msg('receipts.not_found'), 'RECEIPT_NOT_FOUND');
      const { renderReceiptEmail } = await import('./template.ts');
      const email = await renderReceiptEmail({
        payload: row.payload as unknown as ReceiptPayload,
        locale: isLocale(row.locale) ? row.locale : 'en',
        receiptNumber: row.receiptNumber,
        siteUrl,
      });
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'private, no-store')
        .header('content-security-policy', RECEIPT_CSP)
        .send(email.html);
    },
  );

  app.get(
    '/api/admin/email-previews',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['admin'],
        summary: 'Every receipt email in every language, rendered from sample data',
        response: { 200: EmailPreviewsResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
    },
    async () => ({ success: true as const, data: { previews: await emailPreviews(siteUrl) } }),
  );
}
