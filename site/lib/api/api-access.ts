/**
 * The calls behind /account/api (issue 36): the signed-in user's API keys, webhook endpoints, the
 * signing secret for requests' own webhook_url, and the deliveries of each. Answers are
 * `{ success: true, data }` (shared/public-api.ts names each shape). Changes are never retried: a
 * repeated create would make a second key or endpoint, whose secret nobody saw.
 */
import type {
  ApiKeyList,
  ApiScope,
  CreatedApiKey,
  DeliveryPage,
  RequestSecretWithSecret,
  WebhookDeliveryInfo,
  WebhookEndpointWithSecret,
  WebhookEventType,
  WebhookList,
} from '../../../shared/public-api.ts';
import type { Ok } from '../../../shared/api/common.ts';
import { api } from './http.ts';

/** The `data` of a `{ success: true, data }` answer, or an error naming what was expected. */
function dataOf<T>(body: Ok<T> | undefined, what: string): T {
  if (!body?.success || body.data === undefined) throw new Error(`Unexpected ${what} answer`);
  return body.data;
}

const KEYS = '/api/account/api-keys';
const WEBHOOKS = '/api/account/webhooks';
const id = (value: string) => encodeURIComponent(value);

export async function listApiKeys(): Promise<ApiKeyList> {
  return dataOf(await api.get(KEYS).json<Ok<ApiKeyList>>(), 'key list');
}

/** The new key, with its full secret this once. */
export async function createApiKey(name: string, scopes: ApiScope[]): Promise<CreatedApiKey> {
  const body = await api.post(KEYS, { json: { name, scopes }, retry: 0 }).json<Ok<CreatedApiKey>>();
  return dataOf(body, 'new key');
}

export async function revokeApiKey(keyId: string): Promise<void> {
  await api.delete(`${KEYS}/${id(keyId)}`, { retry: 0 });
}

export async function listWebhooks(): Promise<WebhookList> {
  return dataOf(await api.get(WEBHOOKS).json<Ok<WebhookList>>(), 'endpoint list');
}

interface NewEndpoint {
  url: string;
  events: WebhookEventType[];
  /** Only with `credits.low`. */
  credits_low_threshold?: number;
}

/** The new endpoint, with its signing secret this once. */
export async function createWebhook(input: NewEndpoint): Promise<WebhookEndpointWithSecret> {
  const body = await api
    .post(WEBHOOKS, { json: input, retry: 0 })
    .json<Ok<WebhookEndpointWithSecret>>();
  return dataOf(body, 'new endpoint');
}

export async function deleteWebhook(endpointId: string): Promise<void> {
  await api.delete(`${WEBHOOKS}/${id(endpointId)}`, { retry: 0 });
}

/** A new secret for the endpoint; the previous one keeps signing for the overlap. */
export async function rotateWebhookSecret(endpointId: string): Promise<WebhookEndpointWithSecret> {
  const body = await api
    .post(`${WEBHOOKS}/${id(endpointId)}/rotate`, { retry: 0 })
    .json<Ok<WebhookEndpointWithSecret>>();
  return dataOf(body, 'rotated secret');
}

/** Creates the secret for requests' own webhook_url, or rotates it when there is one. */
export async function renewRequestSecret(): Promise<RequestSecretWithSecret> {
  const body = await api
    .post(`${WEBHOOKS}/request-secret`, { retry: 0 })
    .json<Ok<RequestSecretWithSecret>>();
  return dataOf(body, 'request secret');
}

/** A page of an endpoint's deliveries (or of the request secret's), newest first. */
export async function listDeliveries(
  endpointId: string,
  cursor: string | null,
  limit: number,
): Promise<DeliveryPage> {
  const searchParams = cursor ? { limit, cursor } : { limit };
  const body = await api
    .get(`${WEBHOOKS}/${id(endpointId)}/deliveries`, { searchParams })
    .json<Ok<DeliveryPage>>();
  return dataOf(body, 'delivery list');
}

/** Sends a delivery again (the same `webhook-id`); answers it as it stands now. */
export async function resendDelivery(deliveryId: string): Promise<WebhookDeliveryInfo> {
  const body = await api
    .post(`${WEBHOOKS}/deliveries/${id(deliveryId)}/resend`, { retry: 0 })
    .json<Ok<WebhookDeliveryInfo>>();
  return dataOf(body, 'resent delivery');
}
