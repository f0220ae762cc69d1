/**
 * The embedded database in its own thread (core/pglite-remote.ts, core/pglite-thread.ts): what
 * the app relied on from PGlite in its own thread still holds across the message channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openPglite } from '../../server/core/db-pglite.ts';
import { queryRows, type Database } from '../../server/core/db.ts';
import { RemotePglite } from '../../server/core/pglite-remote.ts';
import { runScript } from '../helpers/process.ts';

let database: Database;
beforeAll(async () => {
  database = await openPglite();
  await database.db.execute(sql`create table items (id int primary key, name text unique)`);
});
afterAll(() => database.close());

const names = async (on = database) =>
  (await queryRows<{ name: string }>(on.db, sql`select name from items order by id`)).map(
    (row) => row.name,
  );

describe('PGlite in its own thread', () => {
  it('runs outside the thread that serves requests', async () => {
    // Drizzle's client is the message channel to the database's thread, not a PGlite.
    const client = (database.db as unknown as { $client: unknown }).$client;
    expect(client).toBeInstanceOf(RemotePglite);
    expect(await queryRows(database.db, sql`select 1 + 1 as two`)).toEqual([{ two: 2 }]);
  });

  it('commits a transaction whose callback resolves, and rolls back one that throws', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (1, 'kept')`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into items values (2, 'dropped')`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await names()).toEqual(['kept']);
  });

  it('keeps nested transactions (savepoints) and a query that waits for an open transaction', async () => {
    const order: string[] = [];
    const outside = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      await database.db.execute(sql`insert into items values (4, 'outside')`);
      order.push('outside');
    })();
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into items values (3, 'outer')`);
      await expect(
        tx.transaction(async (inner) => {
          await inner.execute(sql`insert into items values (5, 'inner')`);
          throw new Error('inner only');
        }),
      ).rejects.toThrow('inner only');
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push('transaction');
    });
    await outside;
    // The plain query queued behind the transaction, as in PGlite's own thread.
    expect(order).toEqual(['transaction', 'outside']);
    expect(await names()).toEqual(['kept', 'outer', 'outside']);
  });

  it("gives PostgreSQL's error fields back (code, constraint), as the repositories read them", async () => {
    const error = await database.db
      .execute(sql`insert into items values (9, 'kept')`)
      .catch((e: unknown) => e);
    const cause = (error as { cause?: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 'items_name_key' });
    expect(String((cause as { message?: unknown }).message)).toContain('duplicate key');
  });

  it("delivers a commit's notifications before the commit resolves, and none of a rollback", async () => {
    const seen: string[] = [];
    const stop = await database.listen('thread_test', {
      notify: (payload) => seen.push(payload),
      gap: () => {},
    });
    await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`select pg_notify('thread_test', 'rolled back')`);
        throw new Error('no');
      })
      .catch(() => {});
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_notify('thread_test', 'committed')`);
    });
    expect(seen).toEqual(['committed']);
    await stop();
    await database.db.execute(sql`select pg_notify('thread_test', 'after stop')`);
    expect(seen).toEqual(['committed']);
  });

  it('keeps timestamps as text for drizzle, and refuses a parser it cannot carry', async () => {
    const [row] = await queryRows<{ at: unknown }>(database.db, sql`select now() as at`);
    expect(typeof row!.at).toBe('string');
    const remote = (database.db as unknown as { $client: RemotePglite }).$client;
    await expect(
      remote.query('select 1', [], { parsers: { 1184: (text: string) => new Date(text) } }),
    ).rejects.toThrow('only parsers that keep the text');
  });

  it('copies a dump into a new database, and refuses queries once closed', async () => {
    const copy = await openPglite(undefined, { loadDataDir: await database.dump!() });
    expect(await names(copy)).toEqual(['kept', 'outer', 'outside']);
    await copy.close();
    await expect(copy.db.execute(sql`select 1`)).rejects.toThrow();
  });

  it('does not keep a finished script alive, and keeps a waiting one alive', async () => {
    // The thread is held only while a request waits: a script that opens the database, queries
    // and forgets to close it still ends; one that awaits a query gets its answer first.
    const script = [
      "import { sql } from 'drizzle-orm';",
      "import { openPglite } from './server/core/db-pglite.ts';",
      'const database = await openPglite();',
      'const { rows } = await database.db.execute(sql`select 41 + 1 as answer`);',
      'console.log(rows[0].answer);',
    ].join('\n');
    const result = await runScript('--input-type=module', ['-e', script], {});
    expect(result.stderr).not.toContain('unsettled');
    expect(result.stdout.trim()).toBe('42');
    expect(result.code).toBe(0);
  });
});
