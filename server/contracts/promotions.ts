/**
 * Promotion codes' requests and answers (issue 37, item 1): the admin's codes and their uses, and
 * the pricing page's question "what does this code do to this price". The plain types are in
 * shared/promotions.ts.
 */
import { Type } from 'typebox';
import { BILLING_CYCLES } from '../../shared/billing.ts';
import * as api from '../../shared/promotions.ts';
import { ADMIN_PAGE_MAX, ADMIN_PAGE_SIZE } from '../../shared/admin.ts';
import { KeysetFields, LiteralUnion, Ok, schemaFor } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) =>
  Type.Union([t, Type.Null()]);

/** A code in a path: matched case-insensitively; a malformed one is answered by the service. */
export const PromotionCodeParams = Type.Object({
  code: Type.String({ minLength: 1, maxLength: 64 }),
});

export const PromotionQuoteQuery = Type.Object(
  {
    type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
    plan_id: Type.Optional(Type.String({ maxLength: 40 })),
    package_id: Type.Optional(Type.String({ maxLength: 40 })),
    billing_cycle: Type.Optional(LiteralUnion(BILLING_CYCLES)),
  },
  { additionalProperties: false },
);

export const PromotionQuoteResponse = Ok(
  schemaFor<api.PromotionQuote>()(
    Type.Object({
      code: Type.String(),
      type: Type.Union([Type.Literal('subscription'), Type.Literal('credits')]),
      item_id: Type.String(),
      billing_cycle: Nullable(LiteralUnion(BILLING_CYCLES)),
      percent_off: Nullable(Type.Integer()),
      amount_off: Nullable(Type.Number({ description: 'USD' })),
      applies_to: LiteralUnion(api.PROMOTION_TARGETS),
      price: Type.Number({ description: 'The list price, in currency units (29.9 is $29.90)' }),
      discount: Type.Number({ description: 'What the code takes off' }),
      price_after: Type.Number({ description: 'What the customer pays' }),
      currency: Type.String(),
    }),
  ),
);

export const CreatePromotionCodeBody = schemaFor<api.CreatePromotionCodeRequest>()(
  Type.Object(
    {
      code: Type.String({ minLength: 1, maxLength: 64 }),
      percent_off: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
      amount_off: Type.Optional(
        Type.Number({ minimum: 0.01, maximum: 100_000, description: 'USD off' }),
      ),
      applies_to: LiteralUnion(api.PROMOTION_TARGETS),
      first_purchase_only: Type.Optional(Type.Boolean()),
      max_redemptions: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1_000_000 }))),
      expires_at: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
    },
    { additionalProperties: false },
  ),
);

export const SetPromotionActiveBody = Type.Object(
  { active: Type.Boolean() },
  { additionalProperties: false },
);

const AdminPromotionCode = schemaFor<api.AdminPromotionCode>()(
  Type.Object({
    id: Type.String(),
    code: Type.String(),
    percent_off: Nullable(Type.Integer()),
    amount_off: Nullable(Type.Number()),
    applies_to: LiteralUnion(api.PROMOTION_TARGETS),
    first_purchase_only: Type.Boolean(),
    max_redemptions: Nullable(Type.Integer()),
    redemptions: Type.Integer(),
    expires_at: Nullable(Type.String()),
    active: Type.Boolean(),
    stripe_promotion_code_id: Nullable(Type.String()),
    created_at: Type.String(),
  }),
);

const AdminPromotionRedemption = schemaFor<api.AdminPromotionRedemption>()(
  Type.Object({
    id: Type.String(),
    user_id: Type.String(),
    email: Nullable(Type.String()),
    checkout_id: Type.String(),
    discount: Type.Number(),
    status: Type.Union([
      Type.Literal('reserved'),
      Type.Literal('redeemed'),
      Type.Literal('released'),
    ]),
    created_at: Type.String(),
    redeemed_at: Nullable(Type.String()),
  }),
);

/** A keyset page: `limit` rows after `cursor` (a previous page's next_cursor). */
export const PromotionPageQuery = Type.Object(
  {
    limit: Type.Integer({ minimum: 1, maximum: ADMIN_PAGE_MAX, default: ADMIN_PAGE_SIZE }),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
  },
  { additionalProperties: false },
);

export const PromotionCodeResponse = Ok(AdminPromotionCode);
export const PromotionCodesResponse = Ok(
  Type.Object({ codes: Type.Array(AdminPromotionCode), ...KeysetFields }),
);
export const PromotionRedemptionsResponse = Ok(
  Type.Object({
    code: AdminPromotionCode,
    redemptions: Type.Array(AdminPromotionRedemption),
    ...KeysetFields,
  }),
);
