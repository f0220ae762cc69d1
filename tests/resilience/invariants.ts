/**
 * What must hold after a scenario, read straight from the database (never through the API under
 * test) and from what the simulated users saw. Each check is one named line of the summary.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/core/db.ts';
import type { SimUser } from './driver.ts';

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export const check = (name: string, bad: unknown[], good: string, show = 3): Check => ({
  name,
  ok: bad.length === 0,
  detail:
    bad.length === 0
      ? good
      : `${bad.length} violation(s), e.g. ${JSON.stringify(bad.slice(0, show))}`,
});

const rows = <T = Record<string, unknown>>(db: Db, query: SQL) => queryRows<T>(db, query);

/** The queue, for the summary. */
export async function taskCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = { pending: 0, processing: 0, completed: 0, failed: 0 };
  for (const r of await rows<{ status: string; n: number }>(
    db,
    sql`select status, count(*)::int as n from video_tasks group by status`,
  )) {
    counts[r.status] = r.n;
  }
  return counts;
}

/** The ledger and money invariants, over every customer in the database. */
export async function ledgerChecks(db: Db): Promise<Check[]> {
  const checks: Check[] = [];

  checks.push(
    check(
      'balance = sum of ledger',
      await rows(
        db,
        sql`select u.email, u.credits, coalesce(sum(t.amount), 0)::int as ledger_sum
            from users u left join credit_transactions t on t.user_id = u.id
            group by u.id having u.credits <> coalesce(sum(t.amount), 0)`,
      ),
      'every user',
    ),
  );

  checks.push(
    check(
      'balance = last balance_after',
      await rows(
        db,
        sql`select u.email, u.credits, last.balance_after from users u
            join lateral (
              select balance_after from credit_transactions t where t.user_id = u.id
              order by t.created_at desc, t.id desc limit 1
            ) last on true
            where last.balance_after <> u.credits`,
      ),
      'every user with a ledger',
    ),
  );

  // Each row's balance_after is the running sum in the ledger's own (created_at) order, so the
  // history a user reads adds up line by line.
  checks.push(
    check(
      'ledger rows chain in order',
      await rows(
        db,
        sql`select user_id, source_type, amount, balance_after, running from (
              select t.*, sum(amount) over (
                partition by user_id order by created_at, id rows unbounded preceding
              )::int as running
              from credit_transactions t
            ) x where running <> balance_after`,
      ),
      'every row',
    ),
  );

  checks.push(
    check(
      'no negative balance',
      await rows(
        db,
        sql`select 'user' as what, email as who, credits as value from users where credits < 0
            union all
            select 'ledger row', user_id::text, balance_after from credit_transactions
            where balance_after < 0`,
      ),
      'none below zero',
    ),
  );

  checks.push(
    check(
      'every task charged exactly once',
      await rows(
        db,
        sql`select v.id, count(t.id)::int as charges, coalesce(sum(t.amount), 0)::int as total
            from video_tasks v
            left join credit_transactions t on t.source_type = 'video_task' and t.source_id = v.id::text
            group by v.id, v.credits_charged
            having count(t.id) <> 1 or coalesce(sum(t.amount), 0) <> -v.credits_charged
            union all
            select null, 1, t.amount from credit_transactions t
            where t.source_type = 'video_task'
              and not exists (select 1 from video_tasks v where v.id::text = t.source_id)`,
      ),
      'one charge of its price (credits_charged) per task',
    ),
  );

  checks.push(
    check(
      'every failed task refunded exactly once',
      await rows(
        db,
        sql`select v.id, v.status, count(t.id)::int as refunds, coalesce(sum(t.amount), 0)::int as total
            from video_tasks v
            left join credit_transactions t on t.source_type = 'refund' and t.source_id = v.id::text
            group by v.id, v.status, v.credits_charged
            having (v.status = 'failed' and (count(t.id) <> 1 or coalesce(sum(t.amount), 0) <> v.credits_charged))
                or (v.status <> 'failed' and count(t.id) > 0)`,
      ),
      'failed: one refund of its charge; others: none',
    ),
  );

  checks.push(
    check(
      'every paid checkout granted exactly once',
      await rows(
        db,
        sql`select c.id, c.status, count(t.id)::int as grants, coalesce(sum(t.amount), 0)::int as total
            from checkout_sessions c
            left join credit_transactions t on t.source_type = 'checkout' and t.source_id = c.id
            group by c.id, c.status, c.credits
            having (c.status = 'paid' and (count(t.id) <> 1 or coalesce(sum(t.amount), 0) <> c.credits))
                or (c.status <> 'paid' and count(t.id) > 0)`,
      ),
      'paid: one grant of its credits; unpaid: none',
    ),
  );

  // Independent of the ledger: what the user paid for minus the videos they kept.
  checks.push(
    check(
      'balance = packs paid − videos kept',
      await rows(
        db,
        sql`select u.email, u.credits,
              coalesce((select sum(c.credits) from checkout_sessions c
                        where c.user_id = u.id and c.status = 'paid'), 0)::int
              - (select coalesce(sum(v.credits_charged), 0) from video_tasks v
                 where v.user_id = u.id and v.status <> 'failed')::int as expected
            from users u
            where u.credits <> coalesce((select sum(c.credits) from checkout_sessions c
                                         where c.user_id = u.id and c.status = 'paid'), 0)
                  - (select coalesce(sum(v.credits_charged), 0) from video_tasks v
                     where v.user_id = u.id and v.status <> 'failed')`,
      ),
      'every user',
    ),
  );

  checks.push(
    check(
      'queue drained',
      await rows(
        db,
        sql`select id, status, attempts, status_message from video_tasks
            where status in ('pending', 'processing')`,
      ),
      'no task pending or processing',
    ),
  );

  return checks;
}

/** What the users were told agrees with the database. */
export async function clientChecks(db: Db, users: SimUser[]): Promise<Check[]> {
  const checkouts = new Map(
    (
      await rows<{ id: string; status: string; user_id: string }>(
        db,
        sql`select id, status, user_id from checkout_sessions`,
      )
    ).map((r) => [r.id, r]),
  );
  const tasks = new Map(
    (await rows<{ id: string; user_id: string }>(db, sql`select id, user_id from video_tasks`)).map(
      (r) => [r.id, r],
    ),
  );
  const notSignedIn = users.filter((u) => !u.userId).map((u) => u.email);
  const paidNotPaid: string[] = [];
  const unpaidButPaid: string[] = [];
  const lostTasks: string[] = [];
  for (const u of users) {
    for (const id of u.paid) if (checkouts.get(id)?.status !== 'paid') paidNotPaid.push(id);
    for (const id of u.unpaid) if (checkouts.get(id)?.status === 'paid') unpaidButPaid.push(id);
    for (const id of u.tasks) if (tasks.get(id)?.user_id !== u.userId) lostTasks.push(id);
  }
  return [
    check('every user signed in', notSignedIn, `${users.length} users`),
    check(
      'checkouts paid as the buyer was told',
      paidNotPaid,
      `${users.reduce((n, u) => n + u.paid.size, 0)} paid`,
    ),
    check(
      'cancelled or abandoned checkouts not paid',
      unpaidButPaid,
      `${users.reduce((n, u) => n + u.unpaid.size, 0)} unpaid`,
    ),
    check(
      'no payment left unknown after retrying',
      users.flatMap((u) => [...u.unknownPay]),
      'all settled',
    ),
    check(
      'every accepted task exists for its user',
      lostTasks,
      `${users.reduce((n, u) => n + u.tasks.length, 0)} tasks`,
    ),
  ];
}

/**
 * Every completed task's video is in the media store. With `exact`, the store holds nothing else:
 * a second file means a task was rendered and published twice (after a crash a dead worker's
 * half-finished publish may legitimately leave one, so crash runs skip that half).
 */
export async function mediaChecks(db: Db, dataDir: string, exact: boolean): Promise<Check[]> {
  const completed = await rows<{ id: string; result_url: string | null }>(
    db,
    sql`select id, result_url from video_tasks where status = 'completed'`,
  );
  const files = new Set(
    (await readdir(path.join(dataDir, 'media')).catch(() => [] as string[])).filter((f) =>
      f.endsWith('.mp4'),
    ),
  );
  const referenced = new Set(completed.map((t) => path.basename(t.result_url ?? '')));
  const missing = completed.filter((t) => !t.result_url || !files.has(path.basename(t.result_url)));
  const checks = [check('every completed video is stored', missing, `${completed.length} videos`)];
  if (exact) {
    checks.push(
      check(
        'no video rendered twice (media store)',
        [...files].filter((f) => !referenced.has(f)),
        `${files.size} files for ${completed.length} videos`,
      ),
    );
  }
  return checks;
}
