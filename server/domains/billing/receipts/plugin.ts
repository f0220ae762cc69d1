/**
 * Receipts in the app (issue 37, item 3), registered by the billing plugin: the sender of the
 * receipts outbox (started by server/main.ts after listen, stopped on close; tests run it by
 * hand) and the receipt routes.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../../config.ts';
import type { Db } from '../../../core/db.ts';
import { receiptRoutes } from './routes.ts';
import { createReceiptSender, type ReceiptSender } from './sender.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Mails the receipts outbox; server/main.ts starts it. */
    receiptSender: ReceiptSender;
  }
}

export const receiptsPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; db: Db }) => {
    const { config, db } = opts;
    const sender = createReceiptSender({
      db,
      mailer: app.mailer,
      siteUrl: config.publicSiteUrl,
      log: app.log,
    });
    app.decorate('receiptSender', sender);
    app.addHook('onClose', () => sender.stop());
    await app.register(receiptRoutes, { db, siteUrl: config.publicSiteUrl });
  },
  { name: 'receipts', dependencies: ['database', 'access', 'auth', 'accounts'] },
);
