/**
 * The video domain's part of GET /api/health/ready: the media store is writable (an instance
 * that cannot store results or uploads must leave the load balancer's rotation), and how far
 * the queue lags. Lag is reported, never fatal: more API instances do not drain a queue, so
 * taking this one out of rotation would only shed users; alert on it instead.
 */
import type { DbOrTx } from '../../core/db.ts';
import type { ReadinessCheck } from '../../core/health.ts';
import type { MediaStore } from '../../core/media-store/types.ts';
import { queueLagSeconds } from './repository.ts';

/** A due task waiting longer than this shows the queue check as failing (still not fatal). */
const QUEUE_LAG_WARN_SECONDS = 300;

export async function videoReadiness(db: DbOrTx, media: MediaStore): Promise<ReadinessCheck[]> {
  // The store's kind only: the answer is public, so no path or bucket name goes in it.
  const store: ReadinessCheck = await media.check().then(
    () => ({
      name: 'media store',
      ok: true,
      critical: true,
      detail: media.kind === 'local' ? 'writable' : 'bucket answers',
    }),
    (error: unknown) => ({
      name: 'media store',
      ok: false,
      critical: true,
      detail: `${media.kind === 'local' ? 'not writable' : 'bucket unreachable'}: ${(error as Error).name}`,
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
