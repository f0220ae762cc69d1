/**
 * Simulated users: plain `fetch` against the real processes, doing what people do on the site —
 * sign in, look at their balance, buy a pack through the local checkout, generate videos, open
 * their history, read the blog. Every answer is recorded; a 5xx, an answer the route should never
 * give, or a request that fails while the server is meant to be up is a violation.
 */
import { randomBytes } from 'node:crypto';
import { TEXT_MODEL, VIDEO_COST } from '../../shared/video.ts';
import { localCheckoutForm } from '../helpers/local-checkout.ts';
import { sleep } from '../helpers/process.ts';

/** Starter pack: what most buyers pick, and enough for a run of videos. */
export const PACK = { id: 'starter', credits: 330 } as const;
/** Prompts the local renderer fails on purpose (LOCAL_RENDER_FAIL_PATTERN in processes.ts). */
export const FAIL_PREFIX = 'FAIL:';
const REQUEST_TIMEOUT_MS = 60_000;

const PROMPTS = [
  'A paper boat drifting down a rainy street at night, neon reflections, soft rain sound',
  'A hummingbird hovering over a red flower in slow motion, wings buzzing',
  'Waves rolling onto a black sand beach at sunrise, seagulls calling',
  'A steaming cup of coffee on a wooden table, morning light, quiet cafe chatter',
  'A red fox trotting through fresh snow in a pine forest, crunching steps',
];

interface Failure {
  label: string;
  status: number | null;
  detail: string;
  at: number;
}

/** Everything the users saw, for the summary and the checks. */
export class Stats {
  requests = 0;
  readonly byStatus = new Map<number, number>();
  readonly serverErrors: Failure[] = [];
  /** Answers a route should not give in this flow (e.g. 401 on a balance with a valid token). */
  readonly unexpected: Failure[] = [];
  /** Requests without an answer (refused, reset, timed out), judged against the outages. */
  readonly networkErrors: Array<Failure & { started: number }> = [];
  /** Time ranges when the server was down on purpose (a SIGKILL until it answers again). */
  readonly outages: Array<{ from: number; to: number }> = [];

  /** Network errors outside every outage: the server was meant to be up. */
  unexplainedNetworkErrors() {
    return this.networkErrors.filter(
      (e) => !this.outages.some((o) => e.at >= o.from && e.started <= o.to),
    );
  }

  count5xx() {
    return this.serverErrors.length;
  }
}

export interface Client {
  stats: Stats;
  /** Sends one request; null when no answer came (the failure is recorded). */
  request(
    base: string,
    label: string,
    urlPath: string,
    init: RequestInit,
    expected: number[],
  ): Promise<{ status: number; body: string } | null>;
}

export function createClient(stats: Stats): Client {
  return {
    stats,
    async request(base, label, urlPath, init, expected) {
      const started = Date.now();
      stats.requests += 1;
      let status: number;
      let body: string;
      try {
        const res = await fetch(`${base}${urlPath}`, {
          redirect: 'manual',
          ...init,
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        status = res.status;
        body = await res.text();
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        stats.networkErrors.push({
          label,
          status: null,
          detail: `${(error as Error).name}: ${cause ?? (error as Error).message}`,
          at: Date.now(),
          started,
        });
        return null;
      }
      stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
      if (status >= 500) {
        stats.serverErrors.push({ label, status, detail: body.slice(0, 300), at: Date.now() });
      } else if (!expected.includes(status)) {
        stats.unexpected.push({ label, status, detail: body.slice(0, 300), at: Date.now() });
      }
      return { status, body };
    },
  };
}

/** What one simulated user knows about their own account, checked against the database later. */
export interface SimUser {
  email: string;
  name: string;
  /** The API this user talks to (two instances: users are spread over both). */
  base: string;
  token: string | null;
  userId: string | null;
  /** Last balance an answer showed. */
  credits: number;
  /** Task ids a generate answer returned. */
  tasks: string[];
  /** Checkouts whose Pay answered 303 (paid, as far as the buyer knows). */
  paid: Set<string>;
  /** Checkouts whose Pay got no answer (the server died): paid or not, the retry must tell. */
  unknownPay: Set<string>;
  /** Checkouts the buyer cancelled or walked away from. */
  unpaid: Set<string>;
}

export function newUser(base: string, tag: string, i: number): SimUser {
  const id = randomBytes(3).toString('hex');
  return {
    email: `${tag}-${i}-${id}@resilience.example`,
    name: `Load User ${i}`,
    base,
    token: null,
    userId: null,
    credits: 0,
    tasks: [],
    paid: new Set(),
    unknownPay: new Set(),
    unpaid: new Set(),
  };
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const json = (text: string): Record<string, unknown> => {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
};
const data = (text: string) => (json(text).data ?? {}) as Record<string, unknown>;

export interface Behaviour {
  client: Client;
  /** Published article slugs to read. */
  slugs: string[];
  /** Real renders left to spend (shared by all users); other generates use failing prompts. */
  renders: { left: number };
  /** Stop starting actions at this time (ms since epoch). */
  until: number;
  /** Pause between two actions of one user. */
  thinkMs: [number, number];
  /** Share of generates that spend a real render while the budget lasts (default one half). */
  realShare?: number;
  /** false: no local checkout here (Stripe is configured); users live on what they have. */
  canBuy?: boolean;
}

/** A behaviour for scripted steps: no think time, no render budget, nothing left to do. */
export const scriptedBehaviour = (client: Client): Behaviour => ({
  client,
  slugs: [],
  renders: { left: 0 },
  until: Date.now(),
  thinkMs: [0, 0],
});

const auth = (u: SimUser) => ({ authorization: `Bearer ${u.token ?? ''}` });

/** Local sign-in; retried while the server is down. */
export async function signIn(b: Behaviour, u: SimUser, until = b.until + 60_000): Promise<boolean> {
  while (Date.now() < until) {
    const res = await b.client.request(
      u.base,
      'POST /api/auth/local',
      '/api/auth/local',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: u.name, email: u.email }),
      },
      [200],
    );
    if (res?.status === 200) {
      const d = data(res.body) as { token?: string; user?: { id?: string; credits?: number } };
      u.token = d.token ?? null;
      u.userId = d.user?.id ?? null;
      u.credits = d.user?.credits ?? 0;
      return u.token !== null;
    }
    await sleep(250);
  }
  return false;
}

/** Opens a local checkout page (its forms carry the token Pay and Cancel must post). */
async function openCheckoutPage(b: Behaviour, u: SimUser, sessionId: string) {
  const res = await b.client.request(
    u.base,
    'GET /checkout/local/{id}',
    `/checkout/local/${sessionId}`,
    {},
    [200],
  );
  return res?.status === 200 ? res.body : null;
}

/**
 * Pays a local checkout (the form's POST) from its open `page`, or from the page opened again
 * (after a crash the old page's token may be stale); 303 is paid, no answer is unknown.
 */
export async function pay(
  b: Behaviour,
  u: SimUser,
  sessionId: string,
  page?: string,
): Promise<boolean | null> {
  const html = page ?? (await openCheckoutPage(b, u, sessionId));
  if (html === null) {
    u.unknownPay.add(sessionId);
    return null;
  }
  if (html.includes('This order is already paid.')) {
    // Reopened after an unanswered Pay: the page says it went through (and has no Pay button).
    u.unknownPay.delete(sessionId);
    u.paid.add(sessionId);
    return true;
  }
  const res = await b.client.request(
    u.base,
    'POST /checkout/local/{id}/pay',
    `/checkout/local/${sessionId}/pay`,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: localCheckoutForm(html),
    },
    [303],
  );
  if (!res) {
    u.unknownPay.add(sessionId);
    return null;
  }
  if (res.status !== 303) return false;
  u.unknownPay.delete(sessionId);
  u.paid.add(sessionId);
  return true;
}

/**
 * Buys a pack as the pricing page does: create the checkout session, open the local checkout
 * page, then mostly pay (sometimes twice: a double-clicked Pay must grant once), sometimes
 * cancel, sometimes walk away.
 */
export async function buy(b: Behaviour, u: SimUser, mustPay = false): Promise<void> {
  const created = await b.client.request(
    u.base,
    'POST /api/stripe/create-payment-intent',
    '/api/stripe/create-payment-intent',
    {
      method: 'POST',
      headers: { ...auth(u), 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'credits',
        package_id: PACK.id,
        success_url: '/pricing?payment=success&session_id={CHECKOUT_SESSION_ID}',
        cancel_url: '/pricing?payment=cancelled',
      }),
    },
    [200],
  );
  if (created?.status !== 200) return;
  const sessionId = json(created.body).sessionId;
  if (typeof sessionId !== 'string') return;
  const page = await openCheckoutPage(b, u, sessionId);
  if (page === null) {
    // No page, no Pay button: the buyer walks away.
    u.unpaid.add(sessionId);
    return;
  }
  const roll = Math.random();
  if (mustPay || roll < 0.8) {
    const paid = await pay(b, u, sessionId, page);
    if (paid) u.credits += PACK.credits;
    if (paid && Math.random() < 0.2) await pay(b, u, sessionId, page);
  } else if (roll < 0.9) {
    const res = await b.client.request(
      u.base,
      'POST /checkout/local/{id}/cancel',
      `/checkout/local/${sessionId}/cancel`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: localCheckoutForm(page),
      },
      [303],
    );
    if (res?.status === 303) u.unpaid.add(sessionId);
  } else {
    u.unpaid.add(sessionId);
  }
}

/** Option fields of a generate (issue 35): the spec's clip, and three other prices. */
const PRICED_OPTIONS: Array<Record<string, string>> = [
  {},
  { resolution: '1080p' },
  { tier: 'fast' },
  { aspect_ratio: '9:16', seed: '7' },
];

/** One text-mode video; a real render while the run's budget lasts, else a failing prompt. */
export async function generate(b: Behaviour, u: SimUser): Promise<void> {
  if (u.credits < VIDEO_COST && b.canBuy !== false) await buy(b, u, true);
  const real = b.renders.left > 0 && Math.random() < (b.realShare ?? 0.5);
  if (real) b.renders.left -= 1;
  const form = new FormData();
  form.set('prompt', real ? pick(PROMPTS) : `${FAIL_PREFIX} ${pick(PROMPTS)}`);
  form.set('model', TEXT_MODEL);
  // Failing prompts (no render) carry options too, so tasks cost different prices and the
  // invariants check each charge and refund against the task's own credits_charged.
  if (!real)
    for (const [name, value] of Object.entries(pick(PRICED_OPTIONS))) form.set(name, value);
  const res = await b.client.request(
    u.base,
    'POST /api/video/generate',
    '/api/video/generate',
    { method: 'POST', headers: auth(u), body: form },
    // 402: the balance ran out between two looks; 429: three videos already in progress.
    [200, 402, 429],
  );
  if (res?.status === 200) {
    const d = data(res.body) as { taskId?: string; remainingCredits?: number };
    if (d.taskId) u.tasks.push(d.taskId);
    if (typeof d.remainingCredits === 'number') u.credits = d.remainingCredits;
  } else if (real) {
    b.renders.left += 1; // not spent: no task was made
  }
}

/** The actions a signed-in user picks from, with how often. */
const ACTIONS: Array<[number, (b: Behaviour, u: SimUser) => Promise<unknown>]> = [
  [
    18,
    async (b, u) => {
      const res = await b.client.request(
        u.base,
        'GET /api/credits/balance',
        '/api/credits/balance',
        { headers: auth(u) },
        [200],
      );
      const total = res?.status === 200 ? data(res.body).total_credits : undefined;
      if (typeof total === 'number') u.credits = total;
    },
  ],
  [14, generate],
  [
    8,
    (b, u) =>
      b.client.request(
        u.base,
        'GET /api/video/history',
        '/api/video/history?page=1&limit=10',
        { headers: auth(u) },
        [200],
      ),
  ],
  [
    8,
    async (b, u) => {
      if (u.tasks.length === 0) return;
      await b.client.request(
        u.base,
        'GET /api/video/status/{id}',
        `/api/video/status/${pick(u.tasks)}`,
        { headers: auth(u) },
        [200],
      );
    },
  ],
  [4, async (b, u) => b.canBuy !== false && buy(b, u)],
  [
    10,
    (b, u) =>
      b.client.request(u.base, 'GET /api/blog/posts', '/api/blog/posts?page=1&limit=12', {}, [200]),
  ],
  [
    6,
    (b, u) =>
      b.client.request(
        u.base,
        'GET /api/blog/posts/{slug}',
        `/api/blog/posts/${pick(b.slugs)}`,
        {},
        [200],
      ),
  ],
  [8, (b, u) => b.client.request(u.base, 'GET /blog', '/blog', {}, [200])],
  [8, (b, u) => b.client.request(u.base, 'GET /blog/{slug}', `/blog/${pick(b.slugs)}`, {}, [200])],
  [4, (b, u) => b.client.request(u.base, 'GET /', '/', {}, [200])],
];
const TOTAL_WEIGHT = ACTIONS.reduce((sum, [w]) => sum + w, 0);

function nextAction() {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [weight, action] of ACTIONS) {
    roll -= weight;
    if (roll < 0) return action;
  }
  return ACTIONS[0]![1];
}

/** One user's session: sign in, buy a first pack, then act until the run ends. */
export async function runUser(b: Behaviour, u: SimUser): Promise<void> {
  if (!(await signIn(b, u))) return;
  await buy(b, u, true);
  await act(b, u);
}

/** A signed-in user picks actions until the run ends. */
export async function act(b: Behaviour, u: SimUser): Promise<void> {
  while (Date.now() < b.until) {
    await nextAction()(b, u);
    const [min, max] = b.thinkMs;
    await sleep(min + Math.random() * (max - min));
  }
}

/**
 * After a crash: every checkout whose Pay got no answer is paid again. Paying is idempotent, so
 * the retry answers 303 whether or not the first one went through, and grants at most once.
 */
export async function settleUnknownPayments(b: Behaviour, users: SimUser[]): Promise<void> {
  await Promise.all(
    users.map(async (u) => {
      for (const sessionId of [...u.unknownPay]) await pay(b, u, sessionId);
    }),
  );
}

/** Published article slugs, from the public list (the load reads these). */
export async function articleSlugs(base: string): Promise<string[]> {
  const res = await fetch(`${base}/api/blog/posts?page=1&limit=12`);
  const body = (await res.json()) as { data?: { posts?: Array<{ slug: string }> } };
  const slugs = body.data?.posts?.map((p) => p.slug) ?? [];
  if (slugs.length === 0) throw new Error(`no published posts at ${base}`);
  return slugs;
}
