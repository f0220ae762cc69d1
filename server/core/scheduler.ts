/**
 * A job the app runs once when it is ready and then at a fixed interval until it closes. The
 * timer does not keep the process alive; a failed run is logged and the next one runs on time.
 */
import type { FastifyInstance } from 'fastify';

export function scheduleRepeating(
  app: FastifyInstance,
  job: { everyMs: number; run: () => Promise<unknown>; failure: string },
): void {
  const run = () => job.run().catch((err: unknown) => app.log.error({ err }, job.failure));
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    void run();
    timer = setInterval(run, job.everyMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
