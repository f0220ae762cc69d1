/**
 * The loop that drains an outbox (webhook deliveries, receipt emails): claim a batch of due rows
 * for a lease (the claim is the caller's: FOR UPDATE SKIP LOCKED, so two instances never hold one
 * row), handle each, and look again at once while there is work; when idle, wait `idleMs` or
 * until `wake()`. A row a handler failed to settle is logged and left to its lease; a failed poll
 * is logged and tried again on the next look. `stop()` waits for the handlers in flight.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface OutboxPoller {
  /** Polls until stop(). */
  start(): void;
  /** Stops polling and waits for the rows in flight. */
  stop(): Promise<void>;
  /** Claims the due rows once and handles them; resolves with how many were claimed. */
  runOnce(): Promise<number>;
  /** Looks again now (something was just written), instead of at the end of the idle wait. */
  wake(): void;
}

export function createOutboxPoller<Row>(deps: {
  /** Claims at most `batch` rows due at `at`, held until `leaseUntil`. */
  claim(at: Date, leaseUntil: Date, batch: number): Promise<Row[]>;
  /** Sends one claimed row and records its outcome. */
  handle(row: Row): Promise<void>;
  leaseMs: number;
  batch: number;
  idleMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
  /** What the log calls a row and the poll ("receipt email", "webhook delivery"). */
  what: string;
  /** The fields that name a row in the log. */
  describe(row: Row): Record<string, unknown>;
}): OutboxPoller {
  const { log } = deps;
  const inFlight = new Set<Promise<unknown>>();
  let running: Promise<void> | null = null;
  let stopped = false;
  let woken = false;
  let wakeWait: (() => void) | null = null;

  async function runOnce(): Promise<number> {
    const at = deps.now();
    const claimed = await deps.claim(at, new Date(at.getTime() + deps.leaseMs), deps.batch);
    const handled = Promise.all(
      claimed.map((row) =>
        deps
          .handle(row)
          .catch((err: unknown) =>
            log.error({ err, ...deps.describe(row) }, `${deps.what} failed to settle`),
          ),
      ),
    );
    inFlight.add(handled);
    try {
      await handled;
    } finally {
      inFlight.delete(handled);
    }
    return claimed.length;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      woken = false;
      let found = 0;
      try {
        found = await runOnce();
      } catch (err) {
        log.error({ err }, `${deps.what} poll failed`);
      }
      if (found > 0 || woken || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deps.idleMs);
        wakeWait = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeWait = null;
    }
  }

  return {
    start() {
      if (running) return;
      stopped = false;
      running = loop();
    },
    async stop() {
      stopped = true;
      wakeWait?.();
      await running;
      running = null;
      await Promise.all(inFlight);
    },
    runOnce,
    wake() {
      woken = true;
      wakeWait?.();
    },
  };
}
