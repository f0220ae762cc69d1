/**
 * PGlite in a thread of its own (core/pglite-thread.ts says why), seen from the app's thread as
 * the part of PGlite's client that drizzle and db-pglite.ts use: `query`, `exec`, `transaction`,
 * `listen`, `dumpDataDir` and `close`. Requests and answers are messages on one channel, so they
 * keep their order: a commit's notifications arrive before the commit's answer, as they do from
 * PGlite itself. While a request waits the thread keeps the process alive, and only then.
 */
import { Worker } from 'node:worker_threads';
import type { Results } from '@electric-sql/pglite';
import { rebuildError, type Reply, type RequestBody, type ThreadData } from './pglite-messages.ts';

type Params = unknown[] | undefined;
type QueryOptions = { rowMode?: 'array' | 'object'; parsers?: Record<number, unknown> };

/** What a transaction's callback gets: queries inside it. */
export interface RemoteTransaction {
  query<T>(sql: string, params?: Params, options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
}

/**
 * The type ids of `options.parsers`. Only parsers that return the text as it is can cross to the
 * database's thread (drizzle's, for dates and intervals): anything else is refused here.
 */
function rawTypesOf(options: QueryOptions | undefined): number[] | undefined {
  if (!options?.parsers) return undefined;
  return Object.entries(options.parsers).map(([oid, parse]) => {
    if (typeof parse !== 'function' || parse('1970-01-01') !== '1970-01-01') {
      throw new Error(`type ${oid}: only parsers that keep the text can reach the database thread`);
    }
    return Number(oid);
  });
}

export class RemotePglite {
  readonly waitReady: Promise<void>;
  readonly #worker: Worker;
  readonly #waiting = new Map<number, { resolve(value: unknown): void; reject(e: Error): void }>();
  readonly #listeners = new Map<string, Set<(payload: string) => void>>();
  #nextId = 1;
  #nextTransaction = 1;
  #closed = false;

  constructor(data: ThreadData) {
    this.#worker = new Worker(new URL('./pglite-thread.ts', import.meta.url), {
      workerData: data,
      // None of the process's own flags: `--input-type` or `-e` would stop the thread's start.
      execArgv: [],
      transferList: data.loadDataDir ? [data.loadDataDir] : [],
    });
    this.waitReady = new Promise((resolve, reject) => {
      this.#worker.on('message', (reply: Reply) => {
        if ('ready' in reply) {
          if (reply.ready) resolve();
          else reject(rebuildError(reply.error));
        } else if ('notify' in reply) {
          for (const listener of this.#listeners.get(reply.notify) ?? []) listener(reply.payload);
        } else this.#answer(reply);
      });
      this.#worker.on('error', (error) => {
        reject(error);
        this.#failAll(error);
      });
      this.#worker.on('exit', (code) => {
        const error = new Error(`the database thread stopped (exit code ${code})`);
        reject(error);
        this.#failAll(error);
      });
    });
    // Held (a new worker is) while the thread starts: a script that only opens the database must
    // wait for it; let go once nothing waits.
    this.waitReady.then(
      () => this.#idle(),
      () => {},
    );
  }

  async query<T>(sql: string, params?: Params, options?: QueryOptions, tx?: number) {
    return this.#ask({
      op: 'query',
      sql,
      params,
      rowMode: options?.rowMode,
      rawTypes: rawTypesOf(options),
      tx,
    }) as Promise<Results<T>>;
  }

  exec(sql: string, tx?: number) {
    return this.#ask({ op: 'exec', sql, tx }) as Promise<Results[]>;
  }

  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. The
   * first query goes out with the `begin`, not after its answer: the database's lock is held
   * from the `begin` on, and waiting for that answer would hold it one round trip longer.
   */
  async transaction<T>(fn: (tx: RemoteTransaction) => Promise<T>): Promise<T> {
    const id = this.#nextTransaction++;
    const begun = this.#ask({ op: 'begin', tx: id });
    // A `begin` that fails fails every query of the transaction, and is thrown below.
    const began = begun.then(
      () => true,
      () => false,
    );
    const tx: RemoteTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      if (await began) await this.#ask({ op: 'end', tx: id, commit: false });
      throw error;
    }
    await begun;
    await this.#ask({ op: 'end', tx: id, commit: true });
    return result;
  }

  /** Calls `onNotify` with each payload NOTIFYed on `channel`; resolves to the stop. */
  async listen(channel: string, onNotify: (payload: string) => void) {
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(onNotify);
    await this.#ask({ op: 'listen', channel });
    return async () => {
      set.delete(onNotify);
      if (set.size === 0 && this.#listeners.get(channel) === set) {
        this.#listeners.delete(channel);
        await this.#ask({ op: 'unlisten', channel });
      }
    };
  }

  async dumpDataDir(_compression: 'none'): Promise<Blob> {
    return new Blob([(await this.#ask({ op: 'dump' })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.#ask({ op: 'close' });
    } finally {
      this.#closed = true;
      await this.#worker.terminate();
    }
  }

  #ask(body: RequestBody): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error('the database is closed'));
    const id = this.#nextId++;
    if (this.#waiting.size === 0) this.#worker.ref();
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ ...body, id });
    });
  }

  #answer(reply: Extract<Reply, { id: number }>) {
    const waiting = this.#waiting.get(reply.id);
    if (!waiting) return;
    this.#waiting.delete(reply.id);
    if ('error' in reply) waiting.reject(rebuildError(reply.error));
    else waiting.resolve(reply.result);
    this.#idle();
  }

  /** Nothing waits: the thread alone does not keep the process alive. */
  #idle() {
    if (this.#waiting.size === 0) this.#worker.unref();
  }

  #failAll(error: Error) {
    for (const waiting of this.#waiting.values()) waiting.reject(error);
    this.#waiting.clear();
    this.#closed = true;
  }
}
