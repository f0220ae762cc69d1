/**
 * Schemas of the account's own data and its closing (issue 34, finding 10). The types the site
 * reads are in shared/api/account.ts.
 */
import { VideoOptionsData } from './video.ts';
import { Type } from 'typebox';
import { PASSWORD_MAX_LENGTH } from '../../shared/auth.ts';
import type * as api from '../../shared/api/account.ts';
import { Nullable, Ok, schemaFor } from './common.ts';
import { CreditTransaction } from './credits.ts';

/** `confirm` must be sent: a body without it (an empty or stray request) closes nothing. */
export const CloseAccountBody = schemaFor<api.CloseAccountRequest>()(
  Type.Object(
    {
      confirm: Type.Literal(true),
      password: Type.Optional(Type.String({ minLength: 1, maxLength: PASSWORD_MAX_LENGTH })),
    },
    { additionalProperties: false },
  ),
);

const AccountExportProfile = schemaFor<api.AccountExportProfile>()(
  Type.Object({
    id: Type.String(),
    email: Type.String(),
    name: Nullable(Type.String()),
    picture: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    provider: Type.String(),
    google_linked: Type.Boolean(),
    credits: Type.Integer(),
    email_verified_at: Nullable(Type.String()),
    created_at: Type.String(),
    updated_at: Type.String(),
  }),
);

const AccountExportTask = schemaFor<api.AccountExportTask>()(
  Type.Object({
    id: Type.String(),
    status: Type.String(),
    model: Type.String(),
    mode: Type.String(),
    prompt: Type.String(),
    result_url: Nullable(Type.String()),
    poster_url: Nullable(Type.String()),
    credits_charged: Type.Integer(),
    options: VideoOptionsData,
    source_task_id: Nullable(Type.String()),
    error_message: Nullable(Type.String()),
    api_key_id: Nullable(Type.String()),
    metadata: Nullable(Type.Record(Type.String(), Type.String())),
    created_at: Type.String(),
    completed_at: Nullable(Type.String()),
    deleted_at: Nullable(Type.String()),
  }),
);

const AccountExportApiKey = schemaFor<api.AccountExportApiKey>()(
  Type.Object({
    id: Type.String(),
    name: Type.String(),
    prefix: Type.String(),
    scopes: Type.Array(Type.String()),
    created_at: Type.String(),
    last_used_at: Nullable(Type.String()),
    revoked_at: Nullable(Type.String()),
  }),
);

const AccountExportWebhookEndpoint = schemaFor<api.AccountExportWebhookEndpoint>()(
  Type.Object({
    id: Type.String(),
    url: Nullable(Type.String()),
    events: Type.Array(Type.String()),
    credits_low_threshold: Type.Integer(),
    created_at: Type.String(),
    disabled_at: Nullable(Type.String()),
  }),
);

const AccountExportCheckout = schemaFor<api.AccountExportCheckout>()(
  Type.Object({
    id: Type.String(),
    provider: Type.String(),
    kind: Type.String(),
    item_id: Type.String(),
    billing_cycle: Nullable(Type.String()),
    amount_cents: Type.Integer(),
    currency: Type.String(),
    credits: Type.Integer(),
    status: Type.String(),
    credits_refunded: Type.Integer(),
    discount_cents: Type.Integer(),
    locale: Type.String(),
    created_at: Type.String(),
    completed_at: Nullable(Type.String()),
  }),
);

const AccountExportSubscription = schemaFor<api.AccountExportSubscription>()(
  Type.Object({
    id: Type.String(),
    provider: Type.String(),
    plan_id: Type.String(),
    billing_cycle: Type.String(),
    status: Type.String(),
    current_period_start: Type.String(),
    current_period_end: Type.String(),
    cancel_at_period_end: Type.Boolean(),
    canceled_at: Nullable(Type.String()),
    created_at: Type.String(),
  }),
);

const AccountExportInvoice = schemaFor<api.AccountExportInvoice>()(
  Type.Object({
    invoice_id: Type.String(),
    subscription_id: Type.String(),
    amount_cents: Type.Integer(),
    period_start: Type.String(),
    credits_granted: Type.Integer(),
    refunded_cents: Type.Integer(),
    created_at: Type.String(),
  }),
);

const AccountExportReceipt = schemaFor<api.AccountExportReceipt>()(
  Type.Object({
    receipt_number: Type.String(),
    kind: Type.String(),
    locale: Type.String(),
    status: Type.String(),
    payload: Type.Record(Type.String(), Type.Unknown()),
    created_at: Type.String(),
    sent_at: Nullable(Type.String()),
  }),
);

const AccountExport = schemaFor<api.AccountExport>()(
  Type.Object({
    exported_at: Type.String(),
    profile: AccountExportProfile,
    ledger: Type.Array(CreditTransaction),
    tasks: Type.Array(AccountExportTask),
    api: Type.Object({
      keys: Type.Array(AccountExportApiKey),
      webhook_endpoints: Type.Array(AccountExportWebhookEndpoint),
    }),
    payments: Type.Object({
      checkouts: Type.Array(AccountExportCheckout),
      subscriptions: Type.Array(AccountExportSubscription),
      invoices: Type.Array(AccountExportInvoice),
      receipts: Type.Array(AccountExportReceipt),
    }),
  }),
);
export type AccountExport = api.AccountExport;

export const AccountExportResponse = schemaFor<api.AccountExportResponse>()(Ok(AccountExport));
