/**
 * Work that mails someone, run after the request that asked for it has been answered (issue 34,
 * finding 6). A password reset must answer in the same time whether the address has an account
 * or not; looking the account up, storing a token and sending the mail (a full SMTP round trip)
 * all happen here, after the answer, so the answer itself is the same few steps for everyone.
 *
 * The queue lives in the process: a crash loses the mails it still holds, and the person asks
 * again. A failure is logged, never thrown at anyone. Closing the app waits for what is queued.
 */
import type { FastifyBaseLogger } from 'fastify';

export interface MailQueue {
  /** Runs `work` once the current request's answer has gone out; `what` names it in the log. */
  later(what: string, work: () => Promise<void>): void;
  /** Resolves when everything queued so far has finished (app close; tests wait on it). */
  settled(): Promise<void>;
}

/** A queue that logs failures to `log`. */
export function createMailQueue(log: FastifyBaseLogger): MailQueue {
  const running = new Set<Promise<void>>();
  return {
    later(what, work) {
      // setImmediate: after the handler's promise and the reply it sends (both microtasks).
      const done = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((err: unknown) => log.error({ err }, `${what} failed after the answer`))
        .finally(() => running.delete(done));
      running.add(done);
    },
    async settled() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}
