/**
 * The video queue in GET /metrics, read from the database at each scrape (registered by the video
 * plugin, and by `npm run worker` for its own listener).
 */
import { sql } from 'drizzle-orm';
import { Gauge } from 'prom-client';
import type { DbOrTx } from '../../core/db.ts';
import { queryRows } from '../../core/db.ts';
import { oncePerScrape, type Metrics } from '../../core/metrics.ts';

/**
 * The queue as the database sees it, read at each scrape. Only unfinished tasks are counted:
 * the partial index video_tasks_due_idx covers exactly those, so the query stays cheap however
 * many finished tasks the table keeps (finished ones are counters, counted as they finish).
 */
export function addQueueGauges(metrics: Metrics, db: DbOrTx): void {
  const registers = [metrics.registry];
  const rows = oncePerScrape(() =>
    queryRows<QueueRow>(
      db,
      sql`select status, provider, count(*)::int as count,
            extract(epoch from now() - min(created_at))::float8 as oldest
          from video_tasks where status in ('pending', 'processing')
          group by status, provider`,
    ),
  );
  new Gauge({
    name: 'video_queue_depth',
    help: 'Unfinished video tasks by state',
    labelNames: ['state'] as const,
    registers,
    async collect() {
      const found = await rows();
      for (const state of ['pending', 'processing'] as const) {
        const count = found.filter((r) => r.status === state).reduce((n, r) => n + r.count, 0);
        this.set({ state }, count);
      }
    },
  });
  new Gauge({
    name: 'video_queue_oldest_age_seconds',
    help: 'Age of the oldest pending video task (0 when none waits)',
    registers,
    async collect() {
      const ages = (await rows()).filter((r) => r.status === 'pending').map((r) => r.oldest);
      this.set(ages.length ? Math.max(0, ...ages) : 0);
    },
  });
  new Gauge({
    name: 'video_tasks_unfinished',
    help: 'Unfinished video tasks by state and provider',
    labelNames: ['state', 'provider'] as const,
    registers,
    async collect() {
      this.reset();
      for (const r of await rows()) this.set({ state: r.status, provider: r.provider }, r.count);
    },
  });
}

interface QueueRow {
  status: 'pending' | 'processing';
  provider: string;
  count: number;
  oldest: number;
}
