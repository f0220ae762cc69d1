/**
 * Seeds a PostgreSQL database to one of the data-scale bench's sizes (issue 19, item 6) with
 * set-based SQL (INSERT … SELECT over generate_series), so 2M ledger rows take seconds, not hours.
 *
 * The rows keep every rule the app checks: each user's ledger opens with a grant that covers all
 * of that user's video charges (so no balance_after is ever negative), every task is charged
 * once (`video_task:{id}`), every failed task is refunded once (`refund:{id}`), balance_after is
 * the running sum in (created_at, id) order and users.credits is the ledger's sum. Rows go in in
 * time order, as a live database writes them, so the planner sees the same physical correlation.
 * User 1 is the heavy user (`heavy@bench.example`); the others share the remaining rows evenly.
 */
import pg from 'pg';

/** How many rows of each kind one bench size holds. */
export interface DataSize {
  label: string;
  users: number;
  ledgerRows: number;
  tasks: number;
  posts: number;
  heavyLedgerRows: number;
  heavyTasks: number;
}

export const HEAVY_EMAIL = 'heavy@bench.example';
export const HEAVY_NAME = 'Bench Heavy';
/** Every tenth task failed and was refunded; the rest completed with a video. */
const FAILED_EVERY = 10;
const VIDEO_COST = 17;
/** The opening grant leaves this much on top of every charge; later grants add this much. */
const GRANT = 100;

export const SIZES = {
  /** The baseline: a few rows, so the heavy user still has several pages of each list. */
  empty: {
    label: 'near-empty',
    users: 10,
    ledgerRows: 200,
    tasks: 50,
    posts: 12,
    heavyLedgerRows: 60,
    heavyTasks: 40,
  },
  small: {
    label: 'small (10k users)',
    users: 10_000,
    ledgerRows: 200_000,
    tasks: 50_000,
    posts: 1_000,
    heavyLedgerRows: 5_000,
    heavyTasks: 2_000,
  },
  full: {
    label: 'full (100k users)',
    users: 100_000,
    ledgerRows: 2_000_000,
    tasks: 500_000,
    posts: 10_000,
    heavyLedgerRows: 50_000,
    heavyTasks: 20_000,
  },
} satisfies Record<string, DataSize>;

const failedAmong = (tasks: number) => Math.floor(tasks / FAILED_EVERY);

/** Completed videos of the heavy user: the rows of its history. */
export const heavyHistoryRows = (size: DataSize) => size.heavyTasks - failedAmong(size.heavyTasks);

/** The row counts the seed SQL needs, refusing a size whose ledger cannot hold its tasks. */
function plan(size: DataSize) {
  const otherUsers = size.users - 1;
  const otherTasks = size.tasks - size.heavyTasks;
  const heavyGrants = size.heavyLedgerRows - size.heavyTasks - failedAmong(size.heavyTasks);
  const otherGrants = size.ledgerRows - size.heavyLedgerRows - otherTasks - failedAmong(otherTasks);
  if (otherUsers < 1 || otherTasks < 0 || heavyGrants < 1 || otherGrants < otherUsers) {
    throw new Error(
      `Bench size '${size.label}' cannot be seeded: every user needs an opening grant besides one ledger row per task and per refund (${size.ledgerRows} ledger rows for ${size.users} users and ${size.tasks} tasks is too few).`,
    );
  }
  return { otherUsers, otherTasks, heavyGrants, otherGrants };
}

/** The seed, statement by statement; `$n` placeholders are filled from `plan`. */
function seedStatements(size: DataSize): Array<[string, string, unknown[]]> {
  const p = plan(size);
  const span = `(now() - interval '1 hour' - u.created_at)`;
  return [
    [
      'users',
      `create temp table seed_users on commit drop as
         select n, gen_random_uuid() as id,
                now() - interval '365 days' + (n - 1) * (interval '300 days' / $1::int) as created_at
         from generate_series(1, $1::int) n`,
      [size.users],
    ],
    [
      'tasks',
      // Heavy user: tasks k = 0…heavyTasks-1; the others: task g goes to user 2 + g % otherUsers.
      `create temp table seed_tasks on commit drop as
         select gen_random_uuid() as id, u.id as user_id, s.k % ${FAILED_EVERY} = ${FAILED_EVERY - 1} as failed,
                u.created_at + interval '1 minute' + ${span} * random() as created_at,
                interval '30 seconds' + interval '150 seconds' * random() as took
         from (select 1 as n, k from generate_series(0, $1::int - 1) k
               union all
               select 2 + g % $2::int, g from generate_series(0, $3::int - 1) g) s
         join seed_users u using (n)`,
      [size.heavyTasks, p.otherUsers, p.otherTasks],
    ],
    [
      'ledger',
      // Grant k = 0 of each user is at sign-up and covers every charge of that user.
      `create temp table seed_ledger on commit drop as
         with grants as (
           select u.id as user_id, s.k, u.n,
                  case when s.k = 0 then u.created_at else u.created_at + interval '1 minute' + ${span} * random() end as created_at
           from (select 1 as n, k from generate_series(0, $1::int - 1) k
                 union all
                 select 2 + g % $2::int, g / $2::int from generate_series(0, $3::int - 1) g) s
           join seed_users u using (n)
         ),
         charged as (select user_id, count(*)::int as tasks from seed_tasks group by user_id),
         events as (
           select user_id, -${VIDEO_COST} as amount, 'video_task' as source_type, id::text as source_id,
                  'Veo 3 video: A drone shot over a coastline at sunrise' as description, created_at
           from seed_tasks
           union all
           select user_id, ${VIDEO_COST}, 'refund', id::text,
                  'Refund: video generation failed (the provider could not render this prompt)',
                  created_at + took
           from seed_tasks where failed
           union all
           select g.user_id,
                  case when g.k = 0 then ${VIDEO_COST} * coalesce(c.tasks, 0) + ${GRANT} else ${GRANT} end,
                  'checkout', 'cs_seed_' || g.n || '_' || g.k, 'Credits pack', g.created_at
           from grants g left join charged c using (user_id)
         ),
         keyed as (select gen_random_uuid() as id, * from events)
         select *, sum(amount) over (partition by user_id order by created_at, id
                                     rows unbounded preceding)::int as balance_after
         from keyed`,
      [p.heavyGrants, p.otherUsers, p.otherGrants],
    ],
    [
      'users',
      `insert into users (id, email, name, provider, credits, email_verified_at, created_at, updated_at)
       select u.id,
              case when u.n = 1 then $1 else format('bench-user-%s@bench.example', lpad(u.n::text, 6, '0')) end,
              case when u.n = 1 then $2 else 'Bench user ' || u.n end,
              'local', coalesce(b.credits, 0), u.created_at, u.created_at, u.created_at
       from seed_users u
       left join (select user_id, sum(amount)::int as credits from seed_ledger group by user_id) b
         on b.user_id = u.id
       order by u.created_at`,
      [HEAVY_EMAIL, HEAVY_NAME],
    ],
    [
      'video_tasks',
      `insert into video_tasks (id, user_id, status, status_message, progress, model, mode, prompt,
                                provider, provider_model, submitted_at, provider_finished_at,
                                run_after, result_url, poster_url, error_message, failure_kind,
                                attempts, deadline_at, completed_at, created_at, updated_at,
                                credits_charged)
       select id, user_id,
              case when failed then 'failed' else 'completed' end,
              case when failed then 'Failed' else 'Video ready' end,
              case when failed then 0 else 100 end,
              'veo3', 'text', 'A drone shot over a coastline at sunrise, waves breaking on rocks',
              'local', 'local', created_at + interval '1 second', created_at + took,
              created_at,
              case when failed then null else '/media/' || id || '.mp4' end,
              case when failed then null else '/media/' || id || '.jpg' end,
              case when failed then 'The provider could not render this prompt.' end,
              case when failed then 'provider_error' end,
              1, created_at + interval '30 minutes',
              case when failed then null else created_at + took end,
              created_at, created_at + took, ${VIDEO_COST}
       from seed_tasks order by created_at`,
      [],
    ],
    [
      'credit_transactions',
      `insert into credit_transactions (id, user_id, amount, balance_after, source_type, source_id,
                                        description, created_at)
       select id, user_id, amount, balance_after, source_type, source_id, description, created_at
       from seed_ledger order by created_at`,
      [],
    ],
    ['posts', SEED_POSTS_SQL, [size.posts]],
  ];
}

/**
 * Published posts 1 … $1: the same slugs, titles, ~750-byte bodies and spacing (one hour apart,
 * the newest now) wherever the bench seeds a blog (this seed, publish-scale-probe.ts).
 */
export const SEED_POSTS_SQL = `insert into posts (slug, title, content, excerpt, status, tags, author_name, published_at,
                      created_at, updated_at, view_count)
   select 'bench-post-' || n, 'Bench post ' || n || ': making better 8-second videos',
          '<h2>Part ' || n || '</h2><p>' || repeat('Describe the subject, the action, the camera and the sound. ', 12) || '</p>',
          'How to plan a short clip: subject, motion, camera, light and sound in one sentence.',
          'published', array['bench', 't' || n % 10], 'Bench',
          now() - (($1::int - n) * interval '1 hour'), now() - (($1::int - n) * interval '1 hour'),
          now() - (($1::int - n) * interval '1 hour'), n % 500
   from generate_series(1, $1::int) n`;

/**
 * Per-row change notices (migration 0005) would queue one NOTIFY per seeded row in a database
 * nobody listens to yet: they are switched off for the seed only, by name, so any other trigger
 * (a maintained counter, say) still runs for every row.
 */
const NOTICE_TRIGGERS = [
  ['users', 'users_notify_change'],
  ['credit_transactions', 'credit_transactions_notify_change'],
] as const;

export interface SeedResult {
  /** Wall time of the inserts, and of the VACUUM ANALYZE and CHECKPOINT after them. */
  seedSeconds: number;
  analyzeSeconds: number;
  /** Rows per table as counted after the seed. */
  counts: Record<string, number>;
}

/** Seeds the (migrated, empty) database at `url` to `size`, then runs ANALYZE. */
export async function seedDatabase(url: string, size: DataSize): Promise<SeedResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const started = performance.now();
    await client.query('begin');
    await client.query(`set local work_mem = '256MB'`);
    await client.query('select setseed(0.19)');
    for (const [table, trigger] of NOTICE_TRIGGERS) {
      await client.query(`alter table ${table} disable trigger ${trigger}`);
    }
    for (const [step, statement, params] of seedStatements(size)) {
      try {
        await client.query(statement, params);
      } catch (error) {
        throw new Error(`Seeding ${step} for '${size.label}' failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
    }
    for (const [table, trigger] of NOTICE_TRIGGERS) {
      await client.query(`alter table ${table} enable trigger ${trigger}`);
    }
    await client.query('commit');
    const seeded = performance.now();
    // VACUUM as well as ANALYZE: a database that grew over a year has been vacuumed by autovacuum
    // (PostgreSQL 13+ also vacuums after inserts), so its visibility map lets the bounded counts
    // run as index-only scans. Straight after a bulk load of millions of rows it would not yet.
    await client.query('vacuum analyze');
    // And a checkpoint: the load left gigabytes of dirty pages, which the checkpointer would
    // otherwise write out while the endpoints are timed (a server long past its load has none).
    // It needs superuser or pg_checkpoint; without them the timings carry those writes.
    await client.query('checkpoint').catch(() => {});
    const analyzed = performance.now();
    const counts: Record<string, number> = {};
    for (const table of ['users', 'credit_transactions', 'video_tasks', 'posts']) {
      const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from ${table}`);
      counts[table] = rows[0]!.n;
    }
    return {
      seedSeconds: (seeded - started) / 1000,
      analyzeSeconds: (analyzed - seeded) / 1000,
      counts,
    };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/**
 * Whether the seeded ledger holds the app's invariant: users.credits equals the sum of the user's
 * ledger and each balance_after is the running sum. Answers the number of users that break it.
 */
export async function ledgerMismatches(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `with chain as (
         select user_id,
                balance_after <> sum(amount) over (partition by user_id order by created_at, id
                                                   rows unbounded preceding) as broken
         from credit_transactions
       ),
       broken as (select distinct user_id from chain where broken),
       sums as (select user_id, sum(amount) as total from credit_transactions group by user_id)
       select count(*)::int as n from users u
       left join sums s on s.user_id = u.id
       left join broken b on b.user_id = u.id
       where u.provider <> 'admin' and (u.credits <> coalesce(s.total, 0) or b.user_id is not null)`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}
