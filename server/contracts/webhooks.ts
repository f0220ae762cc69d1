/**
 * Schemas of the session's webhook routes (/api/account/webhooks, issue 36 item 4); the shapes
 * are shared/public-api.ts's.
 */
import { Type, type Static } from 'typebox';
import {
  WEBHOOK_EVENTS,
  type DeliveryPage as DeliveryPageType,
  type RequestSecretInfo as RequestSecretInfoType,
  type RequestSecretWithSecret as RequestSecretWithSecretType,
  type WebhookDeliveryInfo as WebhookDeliveryInfoType,
  type WebhookEndpointInfo as WebhookEndpointInfoType,
  type WebhookEndpointWithSecret as WebhookEndpointWithSecretType,
  type WebhookList as WebhookListType,
} from '../../shared/public-api.ts';
import { LiteralUnion, Nullable, Ok, schemaFor } from './common.ts';

const EventType = LiteralUnion(WEBHOOK_EVENTS);
const secret = Type.String({ description: 'whsec_…: shown this once, never again' });

const endpointFields = {
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(EventType),
  credits_low_threshold: Type.Integer(),
  created_at: Type.String(),
  previous_secret_expires_at: Nullable(
    Type.String({ description: 'Set while the previous secret also signs' }),
  ),
  failing_since: Nullable(Type.String()),
  disabled_at: Nullable(Type.String()),
};
const WebhookEndpointInfo = schemaFor<WebhookEndpointInfoType>()(Type.Object(endpointFields));

const requestSecretFields = {
  id: Type.String(),
  created_at: Type.String(),
  previous_secret_expires_at: Nullable(Type.String()),
};
const RequestSecretInfo = schemaFor<RequestSecretInfoType>()(Type.Object(requestSecretFields));

export const WebhookListResponse = Ok(
  schemaFor<WebhookListType>()(
    Type.Object({
      items: Type.Array(WebhookEndpointInfo),
      request_secret: Nullable(RequestSecretInfo),
    }),
  ),
);

export const EndpointWithSecretResponse = Ok(
  schemaFor<WebhookEndpointWithSecretType>()(Type.Object({ ...endpointFields, secret })),
);

export const RequestSecretResponse = Ok(
  schemaFor<RequestSecretWithSecretType>()(Type.Object({ ...requestSecretFields, secret })),
);

const WebhookDeliveryInfo = schemaFor<WebhookDeliveryInfoType>()(
  Type.Object({
    id: Type.String(),
    event_id: Type.String({ description: 'The webhook-id header, the same on every attempt' }),
    event_type: EventType,
    url: Type.String(),
    status: LiteralUnion(['pending', 'delivered', 'failed'] as const),
    attempts: Type.Array(
      Type.Object({
        attempted_at: Type.String(),
        status_code: Nullable(Type.Integer()),
        response: Type.String({ description: 'The first 1,000 characters, or why none came' }),
        duration_ms: Type.Integer(),
      }),
    ),
    next_attempt_at: Nullable(Type.String()),
    created_at: Type.String(),
    payload: Type.String({ description: 'The JSON body as sent and signed' }),
  }),
);

export const DeliveryResponse = Ok(WebhookDeliveryInfo);

export const DeliveryPageResponse = Ok(
  schemaFor<DeliveryPageType>()(
    Type.Object({
      items: Type.Array(WebhookDeliveryInfo),
      next_cursor: Nullable(Type.String()),
    }),
  ),
);

export const CreateWebhookBody = Type.Object(
  {
    // Longer than the rule's 2,000 characters, so the rule's own message names the limit.
    url: Type.String({ minLength: 1, maxLength: 4096 }),
    events: Type.Array(EventType, {
      minItems: 1,
      maxItems: WEBHOOK_EVENTS.length,
      uniqueItems: true,
    }),
    credits_low_threshold: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 1_000_000,
        description: 'credits.low fires when a debit takes the balance below this',
      }),
    ),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const WebhookIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

export const DeliveriesQuery = Type.Object(
  {
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
