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

/** Parsers that keep a type's text as it is (drizzle's, for dates and intervals). */
const rawParsers = (oids: number[] | undefined) =>
  oids && Object.fromEntries(oids.map((oid) => [oid, (value: string) => value]));

/** Open transactions, by the id the app's thread knows them by. */
const transactions = new Map<number, { tx: Transaction; end(commit: boolean): void }>();
let nextTransaction = 1;
const listening = new Map<string, () => Promise<void>>();

const send = (reply: Reply, transfer: Transferable[] = []) =>
  port.postMessage(reply, transfer as never);

async function handle(request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const on = request.tx === undefined ? client : transactions.get(request.tx)?.tx;
      if (!on) throw new Error(`transaction ${request.tx} is not open`);
      const parsers = rawParsers(request.rawTypes);
      return on.query(request.sql, request.params, {
        rowMode: request.rowMode,
        ...(parsers ? { parsers } : {}),
      });
    }
    case 'exec': {
      const on = request.tx === undefined ? client : transactions.get(request.tx)?.tx;
      if (!on) throw new Error(`transaction ${request.tx} is not open`);
      return on.exec(request.sql);
    }
    case 'begin':
      return new Promise<number>((begun, failed) => {
        const id = nextTransaction++;
        let started = false;
        client
          .transaction(
            (tx) =>
              new Promise<void>((commit, rollback) => {
                started = true;
                transactions.set(id, {
                  tx,
                  end: (ok) => (ok ? commit() : rollback(ROLLED_BACK)),
                });
                begun(id);
              }),
          )
          .then(
            () => finish(id, null),
            (error: unknown) =>
              started ? finish(id, error === ROLLED_BACK ? null : error) : failed(error),
          );
      });
    case 'end': {
      const open = transactions.get(request.tx);
      if (!open) throw new Error(`transaction ${request.tx} is not open`);
      const done = new Promise<void>((resolve, reject) =>
        ended.set(request.tx, (error) => (error ? reject(error) : resolve())),
      );
      open.end(request.commit);
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
