/**
 * 8 parallel subscription pays (issue 16, finding 2): two API processes (no site, no worker) on
 * one fresh PostgreSQL database with the local checkout. Each user opens eight plan checkouts,
 * then presses Pay on all eight at once, spread over both processes; then cancels the
 * subscription on one process while paying another checkout on the other. Then: one
 * subscription started per user and one period of credits for it, the others refused with the
 * spec's message, never two active subscriptions, the race ending in one consistent state, the
 * ledger invariants, and no 5xx.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/core/db.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { ACTIVE_SUBSCRIPTION_STATUSES } from '../../server/db/schema.ts';
import { BILLING_MESSAGES, findPlan } from '../../shared/billing.ts';
import { localCheckoutForm } from '../helpers/local-checkout.ts';
import { createPostgresDatabase } from '../helpers/postgres.ts';
import { freePort, sleep } from '../helpers/process.ts';
import { createClient, newUser, scriptedBehaviour, signIn, Stats, type SimUser } from './driver.ts';
import { check, ledgerChecks, type Check } from './invariants.ts';
import { logTail, makeDataDir, startNode, stop, type Proc } from './processes.ts';
import type { Profile } from './profiles.ts';
import { answerChecks, statsFields, type ScenarioResult } from './report.ts';
import { postgresAdminUrl, withoutPostgres } from './two-instances.ts';

const NAME = '8 parallel subscription pays';
const PAYS = 8;
const PLANS = ['lite', 'pro', 'pro+'];

/** Waits until `base`/api/health answers (these servers build no site). */
async function waitForApi(base: string, proc: Proc, timeoutMs = 180_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (!proc.running()) throw new Error(`${proc.name} exited:\n${await logTail(proc)}`);
    try {
      const res = await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  throw new Error(`${proc.name} did not answer /api/health:\n${await logTail(proc)}`);
}

/** What one user saw: the status of each of the eight pays, then of the race. */
interface Outcome {
  user: SimUser;
  pays: Array<{ status: number | null; message: string | null }>;
  race: { pay: number | null; cancel: number | null };
}

export async function runSubscriptionPays(profile: Profile): Promise<ScenarioResult> {
  const began = Date.now();
  const skipped = await withoutPostgres(NAME);
  if (skipped) return skipped;
  const adminUrl = postgresAdminUrl();

  const database = await createPostgresDatabase(adminUrl, 'resilience_pays_');
  const dataDir = await makeDataDir('resilience-pays-');
  const pool = openPostgres(database.url, 2);
  const procs: Proc[] = [];
  let keep = true;
  try {
    const ports = [await freePort(), await freePort()];
    const bases = ports.map((p) => `http://127.0.0.1:${p}`);
    for (const [i, port] of ports.entries()) {
      procs.push(
        startNode(
          `api-${'AB'[i]}`,
          'server/main.ts',
          {
            DATABASE_URL: database.url,
            DATA_DIR: dataDir,
            PORT: String(port),
            SERVE_SITE: 'false',
            VIDEO_WORKER: 'off',
            LOG_LEVEL: 'warn',
          },
          path.join(dataDir, `api-${'AB'[i]}.log`),
        ),
      );
    }
    await Promise.all(procs.map((p, i) => waitForApi(bases[i]!, p)));
    const ready = Date.now();

    const stats = new Stats();
    const client = createClient(stats);
    const b = scriptedBehaviour(client);
    const users = Array.from({ length: profile.name === 'long' ? 16 : 6 }, (_, i) =>
      newUser(bases[i % 2]!, 'pays', i),
    );
    await Promise.all(users.map((u) => signIn(b, u, Date.now() + 20_000)));
    const auth = (u: SimUser) => ({ authorization: `Bearer ${u.token ?? ''}` });

    const createCheckout = async (u: SimUser, base: string, planId: string) => {
      const res = await client.request(
        base,
        'POST /api/stripe/create-payment-intent',
        '/api/stripe/create-payment-intent',
        {
          method: 'POST',
          headers: { ...auth(u), 'content-type': 'application/json' },
          body: JSON.stringify({
            type: 'subscription',
            plan_id: planId,
            success_url: '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
            cancel_url: '/pricing?payment=cancelled',
          }),
        },
        [200],
      );
      return res?.status === 200 ? (JSON.parse(res.body) as { sessionId: string }).sessionId : null;
    };
    const openPage = async (base: string, id: string) =>
      (await client.request(base, 'GET /checkout/local/{id}', `/checkout/local/${id}`, {}, [200]))
        ?.body ?? '';
    const pay = (base: string, id: string, page: string) =>
      client.request(
        base,
        'POST /checkout/local/{id}/pay',
        `/checkout/local/${id}/pay`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: localCheckoutForm(page),
        },
        [303, 409],
      );

    const outcomes: Outcome[] = await Promise.all(
      users.map(async (u, n) => {
        // Eight checkouts first (paying one refuses new ones), alternating between the APIs.
        const ids: Array<{ id: string; base: string }> = [];
        for (let i = 0; i < PAYS; i++) {
          const base = bases[(n + i) % 2]!;
          const id = await createCheckout(u, base, PLANS[i % PLANS.length]!);
          if (id) ids.push({ id, base });
        }
        const pages = await Promise.all(ids.map(({ id, base }) => openPage(base, id)));
        const answers = await Promise.all(ids.map(({ id, base }, i) => pay(base, id, pages[i]!)));
        const pays = answers.map((res) => ({
          status: res?.status ?? null,
          message:
            res?.status === 409
              ? ((JSON.parse(res.body) as { message?: string }).message ?? null)
              : null,
        }));
        // Cancel on one API while a refused checkout is paid again on the other.
        const again = ids.find((_, i) => pays[i]!.status === 409);
        // The page comes from the API the form posts to (a local checkout's form token is
        // signed by the process that served the page).
        const page = again ? await openPage(bases[(n + 1) % 2]!, again.id) : '';
        const [raced, cancel] = await Promise.all([
          again ? pay(bases[(n + 1) % 2]!, again.id, page) : Promise.resolve(null),
          client.request(
            bases[n % 2]!,
            'POST /api/stripe/subscription/cancel',
            '/api/stripe/subscription/cancel',
            {
              method: 'POST',
              headers: { ...auth(u), 'content-type': 'application/json' },
              body: '{}',
            },
            [200],
          ),
        ]);
        return {
          user: u,
          pays,
          race: { pay: raced?.status ?? null, cancel: cancel?.status ?? null },
        };
      }),
    );
    const seconds = (Date.now() - ready) / 1000;
    await Promise.all(procs.map((p) => stop(p)));

    const db = pool.db;
    const active = await queryRows<{ user_id: string; n: number }>(
      db,
      sql`select user_id, count(*)::int as n from subscriptions
          where status in (${sql.join(
            ACTIVE_SUBSCRIPTION_STATUSES.map((s) => sql`${s}`),
            sql`, `,
          )})
          group by user_id`,
    );
    const activeOf = (u: SimUser) => active.find((a) => a.user_id === u.userId)?.n ?? 0;
    const money = await queryRows<{ user_id: string; credits: number; paid: string[] }>(
      db,
      sql`select u.id as user_id, u.credits,
                 coalesce(array_agg(c.item_id) filter (where c.status = 'paid'), '{}') as paid
          from users u left join checkout_sessions c on c.user_id = u.id group by u.id`,
    );
    const moneyOf = (u: SimUser) => money.find((m) => m.user_id === u.userId);

    const checks: Check[] = [
      ...answerChecks(stats),
      check(
        'one of eight pays starts the subscription',
        outcomes
          .filter(({ pays }) => pays.filter((p) => p.status === 303).length !== 1)
          .map(({ user, pays }) => ({ user: user.email, statuses: pays.map((p) => p.status) })),
        `${users.length} users × ${PAYS} pays at once`,
      ),
      check(
        "the other seven are refused with the spec's message",
        outcomes.flatMap(({ user, pays }) =>
          pays
            .filter((p) => p.status === 409 && p.message !== BILLING_MESSAGES.alreadySubscribed)
            .map((p) => ({ user: user.email, message: p.message })),
        ),
        `409: "${BILLING_MESSAGES.alreadySubscribed}"`,
      ),
      check(
        'never two active subscriptions',
        active.filter((a) => a.n > 1),
        'at most one per user in the database',
      ),
      check(
        'pay racing cancel ends consistent',
        outcomes
          .filter(
            ({ user, race }) =>
              race.cancel !== 200 || activeOf(user) !== (race.pay === 303 ? 1 : 0),
          )
          .map(({ user, race }) => ({ user: user.email, ...race, active: activeOf(user) })),
        'cancel first: the new one active; pay first: refused, none active',
      ),
      check(
        'one period of credits per started subscription',
        users
          .map((u) => ({ u, m: moneyOf(u) }))
          .filter(({ u, m }) => {
            const started = outcomes.find((o) => o.user === u)!;
            const paidSeen =
              started.pays.filter((p) => p.status === 303).length +
              (started.race.pay === 303 ? 1 : 0);
            const due = (m?.paid ?? []).reduce(
              (sum, plan) => sum + (findPlan(plan)?.credits ?? 0),
              0,
            );
            return !m || m.paid.length !== paidSeen || m.credits !== due;
          })
          .map(({ u, m }) => ({ user: u.email, credits: m?.credits, paid: m?.paid })),
        'balance = the plan credits of each paid checkout, one per 303',
      ),
      ...(await ledgerChecks(db)),
    ];
    keep = checks.some((c) => !c.ok);
    const notes = [
      `both APIs ready in ${((ready - began) / 1000).toFixed(1)} s`,
      `${users.length} users on two APIs, ${PAYS} subscription checkouts each`,
    ];
    if (keep) notes.push(`logs kept in ${dataDir}`);
    return {
      name: NAME,
      database: 'postgres',
      seconds,
      ...statsFields(stats),
      tasks: {},
      notes,
      checks,
    };
  } finally {
    await Promise.all(procs.map((p) => stop(p)));
    await pool.close();
    await database.drop();
    if (!keep) await rm(dataDir, { recursive: true, force: true });
  }
}
