/**
 * A customer's own data and the closing of their account (issue 34, finding 10): the shapes the
 * /account page sends and reads. The schemas are in server/contracts/account.ts.
 */
import type { VideoOptionsData } from './video.ts';
import type { Ok } from './common.ts';
import type { CreditTransaction } from './credits.ts';

/** DELETE /api/account. `password` confirms an account that signs in with one. */
export type CloseAccountRequest = {
  /** The customer pressed the final confirmation (the page sends it only then). */
  confirm: true;
  password?: string;
};

/** The profile part of the export: the account as it is stored. */
export type AccountExportProfile = {
  id: string;
  email: string;
  name: string | null;
  picture: string | null;
  avatar_url: string | null;
  provider: string;
  google_linked: boolean;
  credits: number;
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
};

/** One video task, deleted ones included (without their prompt and media). */
export type AccountExportTask = {
  id: string;
  status: string;
  model: string;
  mode: string;
  prompt: string;
  result_url: string | null;
  poster_url: string | null;
  credits_charged: number;
  /** The creative options, the negative prompt included (blanked when the video was deleted). */
  options: VideoOptionsData;
  source_task_id: string | null;
  error_message: string | null;
  /** Issue 36: the API key that started it (null: the site) and the caller's metadata. */
  api_key_id: string | null;
  metadata: Record<string, string> | null;
  created_at: string;
  completed_at: string | null;
  deleted_at: string | null;
};

/** A developer's API key (issue 36): never the key or its hash. */
export type AccountExportApiKey = {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
};

/** A webhook endpoint (url null: the request secret's row); never its secrets. */
export type AccountExportWebhookEndpoint = {
  id: string;
  url: string | null;
  events: string[];
  credits_low_threshold: number;
  created_at: string;
  disabled_at: string | null;
};

/** A checkout (a pack bought, or a subscription's first payment). */
export type AccountExportCheckout = {
  id: string;
  provider: string;
  kind: string;
  item_id: string;
  billing_cycle: string | null;
  amount_cents: number;
  currency: string;
  credits: number;
  status: string;
  credits_refunded: number;
  /** What a promotion code took off (issue 37), and the language the customer bought in. */
  discount_cents: number;
  locale: string;
  created_at: string;
  completed_at: string | null;
};

export type AccountExportSubscription = {
  id: string;
  provider: string;
  plan_id: string;
  billing_cycle: string;
  status: string;
  current_period_start: string;
  current_period_end: string;
  cancel_at_period_end: boolean;
  canceled_at: string | null;
  created_at: string;
};

/** A paid subscription invoice (renewals). */
export type AccountExportInvoice = {
  invoice_id: string;
  subscription_id: string;
  amount_cents: number;
  period_start: string;
  credits_granted: number;
  refunded_cents: number;
  created_at: string;
};

/** A receipt we mailed (or will mail) the customer (issue 37), with what it showed. */
export type AccountExportReceipt = {
  receipt_number: string;
  kind: string;
  locale: string;
  status: string;
  payload: Record<string, unknown>;
  created_at: string;
  sent_at: string | null;
};

/** GET /api/account/export: everything we keep about the customer, oldest rows first. */
export type AccountExport = {
  exported_at: string;
  profile: AccountExportProfile;
  /** Every ledger row, oldest first. */
  ledger: CreditTransaction[];
  tasks: AccountExportTask[];
  /** The public API (issue 36). */
  api: { keys: AccountExportApiKey[]; webhook_endpoints: AccountExportWebhookEndpoint[] };
  payments: {
    checkouts: AccountExportCheckout[];
    subscriptions: AccountExportSubscription[];
    invoices: AccountExportInvoice[];
    receipts: AccountExportReceipt[];
  };
};

export type AccountExportResponse = Ok<AccountExport>;
