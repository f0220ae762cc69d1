/**
 * A user's webhook endpoints (issue 36, item 4): register one (its secret shown once), list,
 * remove, rotate its secret with a 24-hour overlap, the "request secret" that signs the events of
 * requests naming their own `webhook_url`, each endpoint's deliveries with their attempts, and a
 * resend. Delivering is the dispatcher's (dispatcher.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Db } from '../../core/db.ts';
import { decodeCursor, encodeCursor } from '../../core/cursor.ts';
import { conflict, notFound } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import {
  DEFAULT_CREDITS_LOW_THRESHOLD,
  MAX_WEBHOOK_ENDPOINTS,
  WEBHOOK_EVENTS,
  WEBHOOK_ROTATION_OVERLAP_HOURS,
  type DeliveryPage,
  type RequestSecretWithSecret,
  type WebhookDeliveryInfo,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  type WebhookList,
} from '../../../shared/public-api.ts';
import * as repo from './webhooks-repository.ts';
import { newWebhookSecret } from './webhook-signing.ts';
import { assertDeliverableUrl } from './webhook-url.ts';
import { isUuid } from '../../core/uuid.ts';

const HOUR_MS = 60 * 60 * 1000;

/** The events a request's own webhook_url hears (credits.low goes to endpoints only). */
const REQUEST_EVENTS = WEBHOOK_EVENTS.filter((type) => type.startsWith('video.'));

export interface NewWebhookEndpoint {
  url: string;
  events: WebhookEventType[];
  credits_low_threshold?: number | undefined;
}

const endpointNotFound = () => notFound(msg('webhooks.not_found'), 'WEBHOOK_NOT_FOUND');

export function createWebhookService(deps: {
  db: Db;
  config: Pick<Config, 'isProduction' | 'outbound'>;
  /** The clock of rotation overlaps and resends (tests move it). Default: new Date(). */
  now?: (() => Date) | undefined;
}) {
  const { db, config } = deps;
  const now = deps.now ?? (() => new Date());
  const overlapEnds = () => new Date(now().getTime() + WEBHOOK_ROTATION_OVERLAP_HOURS * HOUR_MS);

  return {
    /**
     * Throws 400 WEBHOOK_URL_INVALID, naming why, unless events may be sent to `url` (the rule
     * in webhook-url.ts). POST /v1/videos checks a request's `webhook_url` with it.
     */
    assertDeliverableUrl: (url: string): Promise<string> => assertDeliverableUrl(config, url),

    /** Registers an endpoint; 409 past MAX_WEBHOOK_ENDPOINTS enabled ones. */
    async create(userId: string, input: NewWebhookEndpoint): Promise<WebhookEndpointWithSecret> {
      await assertDeliverableUrl(config, input.url);
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        if (!(await repo.lockUser(tx, userId))) throw endpointNotFound();
        if ((await repo.countEnabled(tx, userId)) >= MAX_WEBHOOK_ENDPOINTS) {
          throw conflict(
            msg('webhooks.too_many', { max: MAX_WEBHOOK_ENDPOINTS }),
            'WEBHOOK_LIMIT_REACHED',
          );
        }
        return repo.insertEndpoint(tx, {
          id: randomUUID(),
          userId,
          url: input.url,
          // In the catalogue's order, once each.
          events: WEBHOOK_EVENTS.filter((type) => input.events.includes(type)),
          creditsLowThreshold: input.credits_low_threshold ?? DEFAULT_CREDITS_LOW_THRESHOLD,
          secret,
        });
      });
      return { ...repo.toEndpointInfo(row, now()), secret };
    },

    async list(userId: string): Promise<WebhookList> {
      const rows = await repo.listEndpoints(db, userId);
      const at = now();
      const requestRow = rows.find((row) => row.url === null);
      return {
        items: rows.filter((row) => row.url !== null).map((row) => repo.toEndpointInfo(row, at)),
        request_secret: requestRow ? repo.toRequestSecretInfo(requestRow, at) : null,
      };
    },

    /** Removes the user's endpoint (or request secret) with its deliveries; 404 for another's. */
    async remove(userId: string, id: string): Promise<void> {
      // Any text reaches here (DELETE …/webhooks/request-secret, a typo): not an id, not found.
      if (!isUuid(id) || !(await repo.deleteEndpoint(db, userId, id.toLowerCase()))) {
        throw endpointNotFound();
      }
    },

    /** A new secret; the previous one keeps signing for WEBHOOK_ROTATION_OVERLAP_HOURS. */
    async rotate(userId: string, id: string): Promise<WebhookEndpointWithSecret> {
      const secret = newWebhookSecret();
      const row = await repo.rotateSecret(db, userId, id, secret, overlapEnds());
      if (!row) throw endpointNotFound();
      return { ...repo.toEndpointInfo(row, now()), secret };
    },

    /** Creates the user's request secret, or rotates it (with the same overlap) when it exists. */
    async requestSecret(userId: string): Promise<RequestSecretWithSecret> {
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        if (!(await repo.lockUser(tx, userId))) throw endpointNotFound();
        const existing = await repo.findRequestSecretRow(tx, userId);
        if (existing) return repo.rotateSecret(tx, userId, existing.id, secret, overlapEnds());
        return repo.insertEndpoint(tx, {
          id: randomUUID(),
          userId,
          url: null,
          events: [...REQUEST_EVENTS],
          creditsLowThreshold: DEFAULT_CREDITS_LOW_THRESHOLD,
          secret,
        });
      });
      return { ...repo.toRequestSecretInfo(row!, now()), secret };
    },

    /** Whether the user has a request secret (a request's webhook_url needs one to be signed). */
    async requestSecretExists(userId: string): Promise<boolean> {
      return (await repo.findRequestSecretRow(db, userId)) !== null;
    },

    /** A page of an endpoint's deliveries, newest first, each with its attempts. */
    async deliveries(
      userId: string,
      endpointId: string,
      cursor: string | undefined,
      limit: number,
    ): Promise<DeliveryPage> {
      const after = cursor === undefined ? null : decodeCursor(cursor);
      if (!(await repo.findEndpoint(db, userId, endpointId))) throw endpointNotFound();
      const rows = await repo.deliveriesPage(db, endpointId, after, limit);
      const page = rows.slice(0, limit);
      const last = page[page.length - 1];
      return {
        items: page.map(({ cursorTs: _ts, ...item }) => item),
        next_cursor:
          rows.length > limit && last ? encodeCursor({ ts: last.cursorTs, id: last.id }) : null,
      };
    },

    /**
     * Sends a delivery again with the same event (the same `webhook-id` and body). 404 for
     * another user's; 409 when its endpoint was disabled (creating it again re-enables it).
     */
    async resend(userId: string, deliveryId: string): Promise<WebhookDeliveryInfo> {
      const owner = await repo.deliveryOwner(db, deliveryId);
      if (!owner || owner.userId !== userId) {
        throw notFound(msg('webhooks.delivery_not_found'), 'DELIVERY_NOT_FOUND');
      }
      if (owner.disabledAt) {
        throw conflict(msg('webhooks.endpoint_disabled'), 'WEBHOOK_ENDPOINT_DISABLED');
      }
      await repo.resetDelivery(db, deliveryId, now());
      return (await repo.findDelivery(db, deliveryId))!;
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
