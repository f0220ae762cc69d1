/**
 * The video domain's part of GET /api/health/ready: the media store is writable (an instance
 * that cannot store results or uploads must leave the load balancer's rotation), and how far
 * the queue lags. Lag is reported, never fatal: more API instances do not drain a queue, so
 * taking this one out of rotation would only shed users; alert on it instead.
 */
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import type { DbOrTx } from '../../core/db.ts';
import type { ReadinessCheck } from '../../core/health.ts';
import type { MediaStore } from './media.ts';
import { queueLagSeconds } from './repository.ts';

/** A due task waiting longer than this shows the queue check as failing (still not fatal). */
export const QUEUE_LAG_WARN_SECONDS = 300;

export async function videoReadiness(db: DbOrTx, media: MediaStore): Promise<ReadinessCheck[]> {
  const store: ReadinessCheck = await mkdir(media.dir, { recursive: true })
    .then(() => access(media.dir, constants.W_OK))
    .then(
      () => ({ name: 'media store', ok: true, critical: true, detail: 'writable' }),
      (error: unknown) => ({
        name: 'media store',
        ok: false,
        critical: true,
        detail: `not writable: ${(error as Error).message}`,
      }),
    );
  const queue: ReadinessCheck = await queueLagSeconds(db).then(
    (lag) => ({
      name: 'video queue',
      ok: lag <= QUEUE_LAG_WARN_SECONDS,
      critical: false,
      detail: `oldest due task waiting ${Math.round(lag)} s`,
    }),
    (error: unknown) => ({
      name: 'video queue',
      ok: false,
      critical: false,
      detail: `unknown: ${(error as Error).message}`,
    }),
  );
  return [store, queue];
}
