/**
 * The billing portal and the payments list (issue 37, item 2). The types the site uses are in
 * shared/api/billing-portal.ts.
 */
import { Type, type Static } from 'typebox';
import type * as api from '../../shared/api/billing-portal.ts';
import { BILLING_CYCLES } from '../../shared/billing.ts';
import { LiteralUnion, Nullable, Ok, schemaFor } from './common.ts';

const PROVIDERS = ['stripe', 'local'] as const;

export const PortalRequest = schemaFor<api.PortalRequest>()(
  Type.Object(
    { return_url: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })) },
    { additionalProperties: false },
  ),
);
export type PortalRequest = api.PortalRequest;

export const PortalResponse = schemaFor<api.PortalResponse>()(
  Ok(Type.Object({ url: Type.String(), provider: LiteralUnion(PROVIDERS) })),
);

const BillingPayment = schemaFor<api.BillingPayment>()(
  Type.Object({
    id: Type.String(),
    type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
    item_id: Type.String(),
    billing_cycle: Nullable(LiteralUnion(BILLING_CYCLES)),
    amount_cents: Type.Integer(),
    discount_cents: Type.Integer(),
    currency: Type.String(),
    paid_at: Type.String({ format: 'date-time' }),
    receipt_number: Nullable(Type.String()),
    receipt_url: Nullable(Type.String()),
  }),
);

export const BillingPaymentsPage = schemaFor<api.BillingPaymentsPage>()(
  Ok(
    Type.Object({
      payments: Type.Array(BillingPayment),
      next_cursor: Nullable(Type.String()),
      has_more: Type.Boolean(),
    }),
  ),
);

export const BillingPaymentsQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);
export type BillingPaymentsQuery = Static<typeof BillingPaymentsQuery>;

export const BillingSummary = schemaFor<api.BillingSummary>()(
  Ok(Type.Object({ has_billing_history: Type.Boolean(), provider: LiteralUnion(PROVIDERS) })),
);
