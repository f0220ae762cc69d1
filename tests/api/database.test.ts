import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { createTestDatabase, allDatabaseKinds } from '../helpers/database.ts';

describe.each(allDatabaseKinds)('migrations on %s', (kind) => {
  it('apply twice without error and leave every table in place', async () => {
    const database = await createTestDatabase(kind, false);
    try {
      await database.migrate();
      await database.migrate();
      const rows = await queryRows<{ table_name: string }>(
        database.db,
        sql`select table_name from information_schema.tables where table_schema = 'public' order by 1`,
      );
      const tables = rows.map((r) => r.table_name);
      expect(tables).toEqual(
        expect.arrayContaining(['users', 'sessions', 'password_reset_tokens']),
      );
      const applied = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
      );
      expect(applied[0]?.n).toBeGreaterThanOrEqual(1);
    } finally {
      await database.dispose();
    }
  });

  it('never lets a balance go below zero', async () => {
    const database = await createTestDatabase(kind);
    try {
      await expect(
        database.db.execute(
          sql`insert into users (email, provider, credits) values ('neg@example.com', 'local', -1)`,
        ),
      ).rejects.toThrow();
    } finally {
      await database.dispose();
    }
  });
});
