/**
 * SQL for each provider's health (video_provider_health): the circuit breaker and the rate-limit
 * wait every worker process shares, and how its recent tasks went (the admin's providers card).
 * Every function takes `db | tx` first.
 */
import { inArray, sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';
import { videoProviderHealth, type VideoProviderHealthRow } from '../../db/schema.ts';

export async function healthOf(
  db: DbOrTx,
  providers: string[],
): Promise<Map<string, VideoProviderHealthRow>> {
  if (providers.length === 0) return new Map();
  const rows = await db
    .select()
    .from(videoProviderHealth)
    .where(inArray(videoProviderHealth.provider, providers));
  return new Map(rows.map((row) => [row.provider, row]));
}

export async function allHealth(db: DbOrTx): Promise<VideoProviderHealthRow[]> {
  return db.select().from(videoProviderHealth).orderBy(videoProviderHealth.provider);
}

/** An accepted submit closes the breaker and clears the count. */
export async function recordAccepted(db: DbOrTx, provider: string): Promise<void> {
  await db.execute(
    sql`insert into video_provider_health (provider) values (${provider})
        on conflict (provider) do update set consecutive_failures = 0, open_until = null,
          rate_limited_until = null, updated_at = now()
        where video_provider_health.consecutive_failures <> 0
           or video_provider_health.open_until is not null
           or video_provider_health.rate_limited_until is not null`,
  );
}

/**
 * A submit the provider did not accept. Counts it; the `threshold`-th failure in a row opens the
 * breaker for `openMs`. Returns whether the breaker is now open.
 */
export async function recordFailure(
  db: DbOrTx,
  provider: string,
  error: string,
  breaker: { threshold: number; openMs: number },
): Promise<boolean> {
  const rows = await queryRows<{ open: boolean }>(
    db,
    sql`insert into video_provider_health as h
          (provider, consecutive_failures, last_error, last_error_at, open_until)
        values (${provider}, 1, ${error.slice(0, 500)}, now(),
          case when 1 >= ${breaker.threshold}
            then now() + make_interval(secs => ${breaker.openMs / 1000}) end)
        on conflict (provider) do update set
          consecutive_failures = h.consecutive_failures + 1,
          last_error = excluded.last_error,
          last_error_at = now(),
          open_until = case when h.consecutive_failures + 1 >= ${breaker.threshold}
            then now() + make_interval(secs => ${breaker.openMs / 1000}) else h.open_until end,
          updated_at = now()
        returning (open_until is not null and open_until > now()) as open`,
  );
  return rows[0]?.open ?? false;
}

/** A 429: nobody submits to the provider again before its Retry-After has passed. */
export async function recordRateLimit(
  db: DbOrTx,
  provider: string,
  error: string,
  waitMs: number,
): Promise<void> {
  await db.execute(
    sql`insert into video_provider_health as h
          (provider, rate_limited_until, last_error, last_error_at)
        values (${provider}, now() + make_interval(secs => ${waitMs / 1000}), ${error.slice(0, 500)}, now())
        on conflict (provider) do update set
          rate_limited_until = greatest(coalesce(h.rate_limited_until, now()), excluded.rate_limited_until),
          last_error = excluded.last_error, last_error_at = now(), updated_at = now()`,
  );
}

/** Per provider over the last `hours`: tasks it accepted, how they ended, p50/p95 seconds to done. */
export async function providerStats(db: DbOrTx, hours: number) {
  return queryRows<{
    provider: string;
    tasks: number;
    succeeded: number;
    failed: number;
    p50: number | null;
    p95: number | null;
  }>(
    db,
    sql`select provider,
          count(*)::int as tasks,
          (count(*) filter (where status = 'completed'))::int as succeeded,
          (count(*) filter (where status = 'failed'))::int as failed,
          (percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at))
            filter (where status = 'completed'))::float8 as p50,
          (percentile_cont(0.95) within group (order by extract(epoch from completed_at - created_at))
            filter (where status = 'completed'))::float8 as p95
        from video_tasks
        where created_at > now() - make_interval(hours => ${hours}) and submitted_at is not null
        group by provider
        order by provider`,
  );
}
