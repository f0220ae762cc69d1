/**
 * The endpoints the data-scale bench times (issue 19, item 6), each as the product's UI or an
 * operator calls it (paths and auth from server/domains/{admin,credits,video,data-api,blog}/
 * routes.ts), for one running server with a seeded heavy user.
 *
 * Deep pages are asked for twice: by page/offset as the UI does today (the server may now refuse
 * a deep offset with a 400 that points to `cursor`: that answer is reported, not hidden), and by
 * the cursor a client gets by walking the list page by page to the same depth (when the route
 * pages by cursor; until then the row says so).
 */
import { HISTORY_PAGE_SIZE } from '../../shared/video.ts';
import { json, walkCursor, type CursorWalk, type TimedTarget } from './data-scale-http.ts';

/** The ledger page size of the credit history calls. */
export const LEDGER_PAGE_SIZE = 10;

/** Where the deep pages are, the same at both sizes (taken from the large one). */
export interface DeepTargets {
  /** Rows before the deep ledger page (its offset). */
  ledgerOffset: number;
  /** The deep history page (1-based, HISTORY_PAGE_SIZE a page). */
  historyPage: number;
  /** The admin user search's `q`: part of one seeded email, and part of every one. */
  searchQuery: string;
  broadSearchQuery: string;
}

/** A running server with its admin and heavy-user sessions. */
export interface BenchServer {
  base: string;
  adminToken: string;
  heavy: { token: string; userId: string };
}

/** One endpoint on one server: what to ask, or why it cannot be asked there. */
export type Prepared =
  { kind: 'ready'; target: TimedTarget; note?: string } | { kind: 'skipped'; note: string };

/** One server's endpoints by name, and the cursor walks behind the deep rows. */
export interface PreparedEndpoints {
  endpoints: Map<string, Prepared>;
  walks: Map<string, CursorWalk>;
}

interface Endpoint {
  name: string;
  /** A path, or the note saying why it cannot be asked at this size. */
  path: string | { skip: string };
  auth: 'admin' | 'heavy' | 'none';
  note?: string;
}

/** The deep-page endpoints' names, shared by both sizes so the rows pair up. */
export function deepNames(targets: DeepTargets) {
  const rows = targets.ledgerOffset.toLocaleString('en-US');
  return {
    historyPage: `history page ${targets.historyPage} via page= (heavy user)`,
    historyCursor: `history page ${targets.historyPage} via cursor (heavy user)`,
    ledgerOffset: `ledger at offset ${rows} via offset= (heavy user)`,
    ledgerCursor: `ledger at offset ${rows} via cursor (heavy user)`,
  };
}

/** The deep page at the cursor a walk reached (`path` of that cursor), or why it is skipped. */
function cursorEndpoint(
  name: string,
  walk: CursorWalk,
  path: (cursor: string) => string,
  target: number,
): Endpoint {
  if (!walk.supported) {
    return {
      name,
      auth: 'heavy',
      path: { skip: 'no next_cursor in the answer: no cursor paging' },
    };
  }
  if (!walk.cursor) return { name, auth: 'heavy', path: { skip: 'the list has a single page' } };
  const endpoint: Endpoint = { name, auth: 'heavy', path: path(walk.cursor) };
  if (walk.depth < target) endpoint.note = 'shorter list: its last page instead';
  return endpoint;
}

/** Every endpoint to time on `server`, deep cursors found by walking the lists first. */
export async function prepareEndpoints(
  server: BenchServer,
  targets: DeepTargets,
): Promise<PreparedEndpoints> {
  const { base, heavy } = server;
  const auth = {
    admin: { authorization: `Bearer ${server.adminToken}` },
    heavy: { authorization: `Bearer ${heavy.token}` },
    none: {},
  };
  const ledger = `/api/credits/${heavy.userId}/transactions?limit=${LEDGER_PAGE_SIZE}`;
  const history = `/api/video/history?limit=${HISTORY_PAGE_SIZE}`;
  // The task-status control asks for the heavy user's newest video.
  const firstPage = await json<{ data: { items: Array<{ id: string }> } }>(
    await fetch(`${base}${history}&page=1`, { headers: auth.heavy }),
  );
  const taskId = firstPage.data.items[0]?.id;

  const names = deepNames(targets);
  const walks = new Map<string, CursorWalk>();
  const historyWalk = await walkCursor(
    (cursor) => `${base}${history}${cursor ? `&cursor=${cursor}` : ''}`,
    auth.heavy,
    (targets.historyPage - 1) * HISTORY_PAGE_SIZE,
  );
  walks.set(names.historyCursor, historyWalk);
  const ledgerWalk = await walkCursor(
    (cursor) => `${base}${ledger}${cursor ? `&cursor=${cursor}` : ''}`,
    auth.heavy,
    targets.ledgerOffset,
  );
  walks.set(names.ledgerCursor, ledgerWalk);
  const endpoints: Endpoint[] = [
    { name: 'admin task list', path: '/api/admin/tasks', auth: 'admin' },
    { name: 'admin users list', path: '/api/admin/users', auth: 'admin' },
    {
      name: `admin user search (q=${targets.searchQuery})`,
      path: `/api/admin/users?q=${encodeURIComponent(targets.searchQuery)}`,
      auth: 'admin',
    },
    {
      name: `admin user search, broad (q=${targets.broadSearchQuery})`,
      path: `/api/admin/users?q=${encodeURIComponent(targets.broadSearchQuery)}`,
      auth: 'admin',
    },
    { name: 'admin overview', path: '/api/admin/overview', auth: 'admin' },
    {
      name: 'data API /api/db/credit_transactions (heavy user)',
      path: '/api/db/credit_transactions',
      auth: 'heavy',
    },
    { name: 'history page 1 (heavy user)', path: `${history}&page=1`, auth: 'heavy' },
    {
      name: names.historyPage,
      path: `${history}&page=${targets.historyPage}`,
      auth: 'heavy',
    },
    cursorEndpoint(
      names.historyCursor,
      historyWalk,
      (cursor) => `${history}&cursor=${cursor}`,
      (targets.historyPage - 1) * HISTORY_PAGE_SIZE,
    ),
    { name: 'ledger page 1 (heavy user)', path: `${ledger}&offset=0`, auth: 'heavy' },
    {
      name: names.ledgerOffset,
      path: `${ledger}&offset=${targets.ledgerOffset}`,
      auth: 'heavy',
    },
    cursorEndpoint(
      names.ledgerCursor,
      ledgerWalk,
      (cursor) => `${ledger}&cursor=${cursor}`,
      targets.ledgerOffset,
    ),
    { name: 'control: balance (heavy user)', path: '/api/credits/balance', auth: 'heavy' },
    {
      name: 'control: task status (heavy user)',
      path: taskId ? `/api/video/status/${taskId}` : { skip: 'the heavy user has no video' },
      auth: 'heavy',
    },
    { name: 'control: blog list', path: '/api/blog/posts?page=1&limit=12', auth: 'none' },
  ];

  const prepared = new Map<string, Prepared>();
  for (const endpoint of endpoints) {
    if (typeof endpoint.path === 'string') {
      prepared.set(endpoint.name, {
        kind: 'ready',
        target: { url: base + endpoint.path, headers: auth[endpoint.auth] },
        ...(endpoint.note ? { note: endpoint.note } : {}),
      });
    } else {
      prepared.set(endpoint.name, { kind: 'skipped', note: endpoint.path.skip });
    }
  }
  return { endpoints: prepared, walks };
}
