/**
 * Work that must wait until a transaction has committed: counting what it wrote in /metrics
 * (credits granted and spent, issue 18 item 6). A counter bumped inside the transaction would
 * count a change that later rolls back (a debit refused further on, a failed commit), and
 * reading the ledger at scrape time would scan it on every scrape; so the code that writes a
 * row queues its count on the transaction (`afterCommit`), and the view of the database the app
 * hands out (`countingCommits`) runs the queue once COMMIT has returned, and drops it otherwise.
 *
 * A savepoint (`tx.transaction`) hands its queue to the enclosing transaction when it is
 * released and drops it when it rolls back. A write on a handle that did not come from such a
 * view (a test's own database, the admin CLI) is simply not counted.
 */
import type { Db, DbOrTx, Tx } from './db.ts';
import type { Metrics } from './metrics.ts';

type Count = (metrics: Metrics) => void;

/** The counts queued by one transaction (or savepoint) that has not finished yet. */
interface Pending {
  counts: Count[];
}

const pendingByTx = new WeakMap<object, Pending>();

/** Queues `count` to run with the app's metrics once the transaction of `tx` has committed. */
export function afterCommit(tx: DbOrTx, count: Count): void {
  pendingByTx.get(tx)?.counts.push(count);
}

/**
 * A view of `db` that behaves as `db` except that its transactions run what was queued on them
 * with afterCommit, with `metrics`, after they commit. The view shares `db`'s connections.
 */
export function countingCommits(db: Db, metrics: Metrics): Db {
  const view = Object.create(db) as Db;
  view.transaction = (async (fn: (tx: Tx) => Promise<unknown>, config?: unknown) => {
    const pending: Pending = { counts: [] };
    const result = await db.transaction((tx) => fn(tracked(tx, pending)), config as never);
    for (const count of pending.counts) {
      // A count must never turn a committed change into an error for its caller.
      try {
        count(metrics);
      } catch {
        // prom-client throws only on a programming error (a negative increment).
      }
    }
    return result;
  }) as Db['transaction'];
  return view;
}

/** Registers `tx` under `pending`, and its savepoints under queues of their own. */
function tracked(tx: Tx, pending: Pending): Tx {
  pendingByTx.set(tx, pending);
  const savepoint = tx.transaction.bind(tx);
  tx.transaction = (async (fn: (inner: Tx) => Promise<unknown>) => {
    const inner: Pending = { counts: [] };
    const result = await savepoint((sub) => fn(tracked(sub, inner)));
    // Released: its writes now commit or roll back with the enclosing transaction.
    pending.counts.push(...inner.counts);
    return result;
  }) as Tx['transaction'];
  return tx;
}
