/** What billing's parts (checkout, fulfillment, subscriptions, webhooks) are built from. */
import type { Db } from '../../core/db.ts';
import type { CheckoutProvider } from './providers/types.ts';

export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface BillingContext {
  db: Db;
  /** Stripe, or the local checkout. */
  provider: CheckoutProvider;
  log: Logger;
}
