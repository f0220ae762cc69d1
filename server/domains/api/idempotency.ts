/**
 * `Idempotency-Key` on every /v1 POST (issue 36), per API key, in the database so it holds across
 * instances:
 * - the first request claims the key (`in_flight`, committed on its own) and runs;
 * - its success answer is stored (`done`) in the transaction of what it did, so the charge and
 *   the answer commit together: a retry then replays it (same status and body,
 *   `idempotent-replayed: true`) and is never charged again;
 * - an error answer means nothing was done: the row is deleted and the key may be used again;
 * - the same key with another request is 422; a request still in flight is 409 (Retry-After 1);
 * - a request that crashed leaves its row in flight until its lock runs out (nothing was charged,
 *   the answer being written with the charge), then a retry takes the key over;
 * - rows expire IDEMPOTENCY_TTL_HOURS after their request and are deleted by an hourly job.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../core/db.ts';
import { AppError, conflict } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import { scheduleRepeating } from '../../core/scheduler.ts';
import { IDEMPOTENCY_TTL_HOURS } from '../../../shared/public-api.ts';
import * as repo from './idempotency-repository.ts';

/** How long a request holds its key before a retry may take it over (it crashed). */
const IDEMPOTENCY_LOCK_MS = 2 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

/** Stores the success answer inside the transaction of what the request did. */
export type SaveAnswer = (tx: Tx, status: number, body: unknown) => Promise<void>;

/** JSON with every object's keys sorted: the same body hashes the same however it was written. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What a key's request is: its method, path and body. */
function requestHash(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

const keyReused = () => new AppError(422, 'IDEMPOTENCY_KEY_REUSED', msg('idempotency.key_reused'));
const IN_PROGRESS = 'IDEMPOTENCY_REQUEST_IN_PROGRESS';
const inProgress = () => conflict(msg('idempotency.in_progress'), IN_PROGRESS);

/** A 409 for a request in flight tells the client when to ask again. */
function retryLater(reply: FastifyReply, error: unknown): unknown {
  if (error instanceof AppError && error.code === IN_PROGRESS) reply.header('retry-after', '1');
  return error;
}

export function createIdempotency(deps: { db: Db; now?: (() => Date) | undefined }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /**
   * Answers what the key's row says (the stored answer to replay, or the 422 / 409 refusal), or
   * claims the key for this request when it has no row, or one that expired or whose request
   * died. A claim lost to another request reads the row again.
   */
  async function begin(apiKeyId: string, key: string, hash: string) {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const at = now();
      // A retry of an answered request (the common case) is one plain read: no write, no lock,
      // so many retries of one key do not queue on its row.
      const row = await repo.find(db, apiKeyId, key, at.toISOString());
      if (row && !row.expired) {
        if (row.request_hash !== hash) throw keyReused();
        if (row.status === 'done') {
          return {
            kind: 'replay' as const,
            status: row.response_status ?? 200,
            body: row.response_body,
          };
        }
        // In flight: refused while its request runs; taken over (below) once it died.
        if (!row.abandoned) throw inProgress();
      }
      const held = {
        apiKeyId,
        key,
        lockedUntil: new Date(at.getTime() + IDEMPOTENCY_LOCK_MS).toISOString(),
      };
      const claimed = await repo.claim(db, {
        ...held,
        requestHash: hash,
        now: at.toISOString(),
        expiresAt: new Date(at.getTime() + IDEMPOTENCY_TTL_HOURS * HOUR_MS).toISOString(),
      });
      if (claimed) return { kind: 'run' as const, held };
      // Another request claimed it between the read and the claim: read it again.
    }
    throw inProgress();
  }

  return {
    /**
     * Runs a POST under its `Idempotency-Key` (none: it just runs). `work` gets the function that
     * stores its answer in its own transaction (ApiSubmit.inTransaction) and returns that answer;
     * its status is `status`. The answer (or the replay, or the refusal) is sent on `reply`.
     */
    async handle(
      request: FastifyRequest,
      reply: FastifyReply,
      status: number,
      work: (save: SaveAnswer | null) => Promise<unknown>,
    ): Promise<void> {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string' || !request.apiKey) {
        reply.status(status).send(await work(null));
        return;
      }
      const path = request.url.split('?')[0]!;
      const hash = requestHash(request.method, path, request.body);
      const started = await begin(request.apiKey.id, key, hash).catch((error: unknown) => {
        throw retryLater(reply, error);
      });
      if (started.kind === 'replay') {
        reply.status(started.status).header('idempotent-replayed', 'true').send(started.body);
        return;
      }
      const save: SaveAnswer = async (tx, answerStatus, body) => {
        // Its lock ran out and a retry took the key over: undo this one's charge instead.
        if (!(await repo.complete(tx, started.held, { status: answerStatus, body }))) {
          throw inProgress();
        }
      };
      let answer: unknown;
      try {
        answer = await work(save);
      } catch (error) {
        await repo.release(db, started.held);
        throw retryLater(reply, error);
      }
      reply.status(status).send(answer);
    },

    /** Deletes expired rows (the hourly job); returns how many. */
    deleteExpired: () => repo.deleteExpired(db, now().toISOString()),
  };
}

export type Idempotency = ReturnType<typeof createIdempotency>;

/** The hourly job that deletes expired keys, on one instance per hour. */
export function scheduleIdempotencyCleanup(
  app: FastifyInstance,
  db: Db,
  idempotency: Idempotency,
): void {
  scheduleRepeating(app, db, {
    name: 'idempotency.cleanup',
    everyMs: HOUR_MS,
    run: () => idempotency.deleteExpired(),
    failure: 'deleting expired idempotency keys failed',
  });
}
