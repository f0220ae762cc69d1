/**
 * The embedded database's own thread: PGlite runs here, and the app's thread talks to it through
 * messages (core/pglite-remote.ts). A PGlite instance in the thread that serves HTTP makes every
 * request slower, even those that never touch the database: about 2 µs of 13 on
 * `/api/health/live`, measured with PGlite preloaded into a PostgreSQL-mode server (13.1 against
 * 15.2–18.0 µs of CPU per request), and none with the same PGlite in a worker thread (13.4). The
 * cost is per V8 isolate, so the database gets an isolate of its own; its queries also run beside
 * the app's JavaScript instead of taking turns with it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Reply, Request, ThreadData } from './pglite-messages.ts';
import { describeError } from './pglite-messages.ts';

const port = parentPort!;
const data = workerData as ThreadData;
// pg_trgm backs the admin's search by part of an email (migration 0011's trigram index).
const extensions = { pg_trgm };
const options = data.loadDataDir
  ? { extensions, loadDataDir: new Blob([data.loadDataDir]) }
  : { extensions };
const client = data.dataDir ? new PGlite(data.dataDir, options) : new PGlite(options);

/**
 * Parsers that keep a type's text as it is (drizzle's, for dates and intervals), made once per
 * list of types: drizzle sends the same list with every query.
 */
const parserSets = new Map<string, Record<number, (value: string) => string>>();
function rawParsers(oids: number[] | undefined) {
  if (!oids) return undefined;
  const key = oids.join(',');
  let parsers = parserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));
    parserSets.set(key, parsers);
  }
  return parsers;
}

/**
 * Transactions by the id the app's thread gave them: `begun` resolves to the handle once PGlite
 * has begun it (it waits for any other transaction to end first), `end` finishes it then.
 */
interface Open {
  begun: Promise<Transaction>;
  end?: (commit: boolean) => void;
}
const transactions = new Map<number, Open>();

/** Where a request runs: the database, or the transaction it names once that has begun. */
async function target(tx: number | undefined): Promise<PGlite | Transaction> {
  if (tx === undefined) return client;
  const open = transactions.get(tx);
  if (!open) throw new Error(`transaction ${tx} is not open`);
  return open.begun;
}
const listening = new Map<string, () => Promise<void>>();

const send = (reply: Reply, transfer: Transferable[] = []) =>
  port.postMessage(reply, transfer as never);

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const on = await target(request.tx);
      const parsers = rawParsers(request.rawTypes);
      return on.query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(parsers ? { parsers } : {}),
      });
    }
    case 'exec':
      return (await target(request.tx)).exec(request.sql);
    case 'begin': {
      // The app's thread sends the transaction's first query without waiting for this answer:
      // it waits here (target) until the transaction has begun.
      const id = request.tx;
      const open: Open = {
        begun: new Promise<Transaction>((begun, failed) => {
          let started = false;
          client
            .transaction(
              (tx) =>
                new Promise<void>((commit, rollback) => {
                  started = true;
                  open.end = (ok) => (ok ? commit() : rollback(ROLLED_BACK));
                  begun(tx);
                }),
            )
            .then(
              () => finish(id, null),
              (error: unknown) => {
                if (started) return finish(id, error === ROLLED_BACK ? null : error);
                transactions.delete(id);
                failed(error);
              },
            );
        }),
      };
      transactions.set(id, open);
      await open.begun;
      return null;
    }
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      await open.begun;
      const done = new Promise<void>((resolve, reject) =>
        ended.set(request.tx, (error) => (error ? reject(error) : resolve())),
      );
      open.end!(request.commit);
      return done;
    }
    case 'listen': {
      if (!listening.has(request.channel)) {
        const stop = await client.listen(request.channel, (payload) =>
          send({ notify: request.channel, payload }),
        );
        listening.set(request.channel, stop);
      }
      return null;
    }
    case 'unlisten': {
      const stop = listening.get(request.channel);
      listening.delete(request.channel);
      await stop?.();
      return null;
    }
    case 'dump': {
      const dump = await client.dumpDataDir('none');
      return dump.arrayBuffer();
    }
    case 'close':
      await client.close();
      return null;
  }
}

const ROLLED_BACK = Symbol('rolled back');
/** Who waits for a transaction's COMMIT or ROLLBACK (the `end` request), by its id. */
const ended = new Map<number, (error: unknown) => void>();
function finish(id: number, error: unknown) {
  ended.get(id)?.(error);
  ended.delete(id);
  transactions.delete(id);
}

port.on('message', (request: Request) => {
  handle(request).then(
    (result) => send({ id: request.id, result }, result instanceof ArrayBuffer ? [result] : []),
    (error: unknown) => send({ id: request.id, error: describeError(error) }),
  );
});

client.waitReady.then(
  () => send({ ready: true }),
  (error: unknown) => send({ ready: false, error: describeError(error) }),
);
