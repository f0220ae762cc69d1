/**
 * SQL for the admin sign-in lockout: failures counted per key (lockout-policy.ts says which) in
 * admin_login_failures, a lock after too many in a row. Every function takes `db | tx` first.
 */
import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '../../core/db.ts';

/** `key in (…)` for a list of keys. */
const keyIn = (keys: string[]) =>
  sql`key in (${sql.join(
    keys.map((k) => sql`${k}`),
    sql`, `,
  )})`;

/** The latest lock among `keys` still in force at `now`, or null. */
export async function activeLock(db: DbOrTx, keys: string[], now: Date): Promise<Date | null> {
  const rows = await queryRows<{ locked_until: Date | null }>(
    db,
    sql`select max(locked_until) as locked_until from admin_login_failures
        where ${keyIn(keys)}
          and locked_until > ${now.toISOString()}::timestamptz`,
  );
  const until = rows[0]?.locked_until;
  return until ? new Date(until) : null;
}

/**
 * Counts one failure for each key in one statement per key (two instances failing at once both
 * count). A run of failures restarts at 1 after a lock ran out or after `windowMs` without one;
 * the key's `max`-th failure in a run locks that key for `windowMs`.
 */
export async function recordFailure(
  db: DbOrTx,
  keys: Array<{ key: string; max: number }>,
  now: Date,
  opts: { windowMs: number },
): Promise<void> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const windowStart = sql`${new Date(now.getTime() - opts.windowMs).toISOString()}::timestamptz`;
  const lockEnd = sql`${new Date(now.getTime() + opts.windowMs).toISOString()}::timestamptz`;
  const next = sql`case
    when f.last_failed_at < ${windowStart} or f.locked_until <= ${at} then 1
    else f.failures + 1 end`;
  for (const { key, max } of keys) {
    await db.execute(sql`
      insert into admin_login_failures as f (key, failures, last_failed_at, locked_until)
      values (${key}, 1, ${at}, ${max <= 1 ? lockEnd : sql`null`})
      on conflict (key) do update set
        failures = ${next},
        last_failed_at = ${at},
        locked_until = case when ${next} >= ${max} then ${lockEnd} else null end`);
  }
  // Old runs are forgotten, so guessed usernames do not pile up.
  await db.execute(sql`
    delete from admin_login_failures
    where last_failed_at < ${new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString()}::timestamptz
      and (locked_until is null or locked_until <= ${at})`);
}

export async function clearFailures(db: DbOrTx, keys: string[]): Promise<void> {
  await db.execute(sql`delete from admin_login_failures where ${keyIn(keys)}`);
}
