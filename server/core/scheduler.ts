/**
 * Jobs the app runs at a fixed interval, once per interval across every instance sharing the
 * database. Time is cut into ticks (floor(epoch ms / everyMs)); at each tick every instance asks
 * the database to claim it for the job's name (one conditional upsert on scheduled_job_runs) and
 * only the instance that wins runs the job. An instance checks when it is ready (a tick nobody ran
 * yet runs at once) and then at each tick's start. Timers do not keep the process alive; a failed
 * run is logged and the next tick runs on time.
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { queryRows, type DbOrTx } from './db.ts';

export interface RepeatingJob {
  /** Stable across processes and releases: the job's row in scheduled_job_runs. */
  name: string;
  everyMs: number;
  run: (tick: { tick: number }) => Promise<unknown>;
  /** Logged with the error when a run fails. */
  failure: string;
  /** The clock ticks are read from (tests move it). Default: Date.now. */
  now?: () => number;
}

/**
 * What one check did: ran the job (or the run or the claim failed), another instance had the tick,
 * this one had seen it already, or a check was already waiting.
 */
export type TickOutcome = 'ran' | 'failed' | 'claimed-elsewhere' | 'already-seen' | 'busy';

/** This process in scheduled_job_runs.instance; the suffix tells apart apps in one process. */
const processName = `${hostname()}:${process.pid}`;

/**
 * Claims `tick` of job `name` for `instance`: true for exactly one caller per tick, however many
 * instances ask at once (the row lock orders them and the loser sees the tick already taken).
 */
async function claimTick(
  db: DbOrTx,
  name: string,
  tick: number,
  instance: string,
): Promise<boolean> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`INSERT INTO scheduled_job_runs AS r (name, tick, ran_at, instance)
        VALUES (${name}, ${tick}::bigint, now(), ${instance})
        ON CONFLICT (name) DO UPDATE
          SET tick = excluded.tick, ran_at = excluded.ran_at, instance = excluded.instance
          WHERE r.tick < excluded.tick
        RETURNING name`,
  );
  return rows.length > 0;
}

/**
 * One instance's side of a job: `runDue` claims the current tick and runs the job when this
 * instance wins it. scheduleRepeating drives it with timers; tests call it directly.
 */
export function createTickRunner(opts: {
  db: DbOrTx;
  job: RepeatingJob;
  log: FastifyBaseLogger;
  /** Default: host, pid and a random suffix. */
  instance?: string;
}) {
  const { db, job, log } = opts;
  const now = job.now ?? Date.now;
  const instance = opts.instance ?? `${processName}:${randomUUID().slice(0, 8)}`;
  let seenTick = -1;
  // Checks run one after another: a check asked for during a run waits for it (at most one waits).
  let chain: Promise<unknown> = Promise.resolve();
  let waiting = false;

  async function check(): Promise<TickOutcome> {
    const tick = Math.floor(now() / job.everyMs);
    if (tick <= seenTick) return 'already-seen';
    let claimed: boolean;
    try {
      claimed = await claimTick(db, job.name, tick, instance);
    } catch (err) {
      // Not marked seen: the next check asks again.
      log.error({ err, job: job.name, tick }, `${job.failure} (could not claim the tick)`);
      return 'failed';
    }
    seenTick = Math.max(seenTick, tick);
    if (!claimed) return 'claimed-elsewhere';
    try {
      await job.run({ tick });
      log.debug({ job: job.name, tick, instance }, 'scheduled job ran');
      return 'ran';
    } catch (err) {
      log.error({ err, job: job.name, tick }, job.failure);
      return 'failed';
    }
  }

  return {
    instance,
    /** Milliseconds until the next tick starts (at least 1). */
    msUntilNextTick: () => Math.max(1, job.everyMs - (now() % job.everyMs)),
    /**
     * Claims and runs the current tick unless this instance already saw it. Asked while a run is
     * in flight, it checks once that run ends, so one instance never runs a job twice at once.
     */
    runDue(): Promise<TickOutcome> {
      if (waiting) return Promise.resolve('busy');
      waiting = true;
      const outcome = chain.then(() => {
        waiting = false;
        return check();
      });
      chain = outcome;
      return outcome;
    },
    /** Resolves when no check or run is in flight. */
    async idle(): Promise<void> {
      await chain;
    },
  };
}

/**
 * Runs `job` at each tick on exactly one of the instances sharing `db`, starting when the app is
 * ready. Closing the app stops the timer and waits for a run in flight.
 */
export function scheduleRepeating(app: FastifyInstance, db: DbOrTx, job: RepeatingJob): void {
  const runner = createTickRunner({ db, job, log: app.log });
  let timer: NodeJS.Timeout | null = null;
  let closed = false;
  const next = () => {
    if (closed) return;
    timer = setTimeout(() => {
      void runner.runDue();
      next();
    }, runner.msUntilNextTick());
    timer.unref();
  };
  app.addHook('onReady', async () => {
    void runner.runDue();
    next();
  });
  app.addHook('onClose', async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    await runner.idle();
  });
}
