/**
 * HTTP for the data-scale bench (issue 19, item 6): timing endpoints with a fixed number of
 * requests at a fixed concurrency (p50/p95 of every request's own latency; autocannon reports no
 * p95), signing in, and walking a keyset-paged list by its `next_cursor`.
 */

/** Latencies of one endpoint, and what it answered. */
export interface Timing {
  p50: number;
  p95: number;
  /** Answers per HTTP status, e.g. `{ 200: 200 }`. */
  statuses: Record<string, number>;
  /** The first non-2xx answer's status and message. */
  firstError: string | null;
}

/** Nearest-rank percentile of `values` (ms), to 0.1 ms. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return +(sorted[rank - 1] ?? 0).toFixed(1);
}

/** One URL to time, with the headers (its session) it is asked with. */
export interface TimedTarget {
  url: string;
  headers: Record<string, string>;
}

/**
 * `amount` GETs of each target by `concurrency` clients (each sends its next request when the
 * last one is read), after `warmup` uncounted ones. The targets take turns in `rounds` slices
 * (in alternating order), so the near-empty and the seeded server are timed under the same load
 * from whatever else this machine runs, and their ratio holds even when absolute figures drift.
 */
export async function timeInterleaved(
  targets: TimedTarget[],
  { amount = 200, concurrency = 10, warmup = 20, rounds = 4 } = {},
): Promise<Timing[]> {
  const results = targets.map(() => ({
    latencies: [] as number[],
    statuses: {} as Record<string, number>,
    firstError: null as string | null,
  }));
  const run = async (index: number, count: number, record: boolean) => {
    const { url, headers } = targets[index]!;
    const result = results[index]!;
    let left = count;
    const client = async () => {
      while (left > 0) {
        left -= 1;
        const started = performance.now();
        const res = await fetch(url, { headers });
        const body = await res.text();
        if (!record) continue;
        result.latencies.push(performance.now() - started);
        result.statuses[res.status] = (result.statuses[res.status] ?? 0) + 1;
        if (!res.ok && result.firstError === null) {
          result.firstError = `${res.status}: ${errorMessage(body)}`;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, client));
  };
  for (const index of targets.keys()) await run(index, warmup, false);
  for (let round = 0; round < rounds; round++) {
    const slice = Math.floor(amount / rounds) + (round < amount % rounds ? 1 : 0);
    const order = [...targets.keys()];
    if (round % 2 === 1) order.reverse();
    for (const index of order) await run(index, slice, true);
  }
  return results.map((r) => ({
    p50: percentile(r.latencies, 50),
    p95: percentile(r.latencies, 95),
    statuses: r.statuses,
    firstError: r.firstError,
  }));
}

/** The `message` of an API error body (ARCHITECTURE: `{ success: false, message, code }`). */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // Not JSON: the body itself, cut short.
  }
  return body.slice(0, 300);
}

/** The JSON of a 2xx answer; anything else is an error that names the URL and the answer. */
export async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** A bearer session from the admin sign-in (ADMIN_USERNAME / ADMIN_PASSWORD of the server). */
export async function adminSignIn(base: string, username: string, password: string) {
  const { data } = await json<{ data: { token: string } }>(
    await fetch(`${base}/api/auth/admin-login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    }),
  );
  return data.token;
}

/** A session of the (seeded) local account with this email: local sign-in reuses the account. */
export async function localSignIn(base: string, name: string, email: string) {
  const { data } = await json<{ data: { token: string; user: { id: string } } }>(
    await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, email }),
    }),
  );
  return { token: data.token, userId: data.user.id };
}

/**
 * The `next_cursor` of a list answer, wherever the route puts it (beside the rows in `data`, or
 * at the top level when `data` is the rows): a string, null on the last page, or undefined when
 * the route does not page by cursor (yet).
 */
export function nextCursorOf(body: unknown): string | null | undefined {
  const top = body as { next_cursor?: unknown; data?: { next_cursor?: unknown } } | null;
  const found = top?.data && 'next_cursor' in top.data ? top.data.next_cursor : top?.next_cursor;
  if (found === undefined) return undefined;
  return typeof found === 'string' ? found : null;
}

/** The rows of a list answer: `data` itself, or the first array in it. */
export function rowsOf(body: unknown): unknown[] {
  const data = (body as { data?: unknown } | null)?.data;
  if (Array.isArray(data)) return data;
  const first = Object.values((data ?? {}) as Record<string, unknown>).find(Array.isArray);
  return (first as unknown[] | undefined) ?? [];
}

/** Where a cursor walk ended. */
export interface CursorWalk {
  /** False: the list's first page carries no next_cursor, so it has no cursor paging yet. */
  supported: boolean;
  /** The cursor of the page that starts after `depth` rows (null: none reached). */
  cursor: string | null;
  /** Rows before `cursor`'s page: the target depth, or less when the list ended sooner. */
  depth: number;
  requests: number;
  ms: number;
}

/**
 * Walks a list page by page as a client does, `pageUrl(cursor)` giving each page's URL (null: the
 * first), until `depth` rows lie before the next page or the list ends. Pages of `pageUrl`'s
 * limit, so the walk is what the UI would do to reach that depth.
 */
export async function walkCursor(
  pageUrl: (cursor: string | null) => string,
  headers: Record<string, string>,
  depth: number,
): Promise<CursorWalk> {
  const started = performance.now();
  let cursor: string | null = null;
  let seen = 0;
  let requests = 0;
  for (;;) {
    const body = await json<unknown>(await fetch(pageUrl(cursor), { headers }));
    requests += 1;
    const next = nextCursorOf(body);
    if (next === undefined) {
      return { supported: false, cursor: null, depth: 0, requests, ms: 0 };
    }
    const rows = rowsOf(body).length;
    if (next === null || rows === 0) break;
    seen += rows;
    cursor = next;
    if (seen >= depth) break;
  }
  return { supported: true, cursor, depth: seen, requests, ms: performance.now() - started };
}
