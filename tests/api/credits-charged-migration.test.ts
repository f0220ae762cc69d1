/**
 * Migration 0014 (issue 32 item 6): video_tasks.credits_charged. Tasks that exist when it runs
 * were all charged 17 credits (the cost until then) and are backfilled with that; after it, a task
 * must say what it was charged (no default, so no second source of the price in SQL).
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/core/db.ts';
import { allDatabaseKinds, createTestDatabase } from '../helpers/database.ts';

const MIGRATION = new URL('../../server/db/migrations/0014_credits_charged.sql', import.meta.url);

describe.each(allDatabaseKinds)('migration 0014_credits_charged on %s', (kind) => {
  it('backfills existing tasks with 17 and leaves no default for new ones', async () => {
    const database = await createTestDatabase(kind);
    const { db } = database;
    try {
      // The table as it was before 0014, with one task charged under the old rules.
      await db.execute(sql`alter table video_tasks drop column credits_charged`);
      await db.execute(
        sql`insert into users (id, email, provider) values
            ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'local')`,
      );
      const insertTask = (id: string) =>
        db.execute(
          sql`insert into video_tasks (id, user_id, model, mode, prompt, provider, deadline_at)
              values (${id}::uuid, '00000000-0000-4000-8000-000000000001', 'veo3', 'text',
                      'before 0014', 'local', now())`,
        );
      await insertTask('00000000-0000-4000-8000-0000000000a1');

      for (const statement of (await readFile(MIGRATION, 'utf8')).split(
        '--> statement-breakpoint',
      )) {
        await db.execute(sql.raw(statement));
      }

      const rows = await queryRows<{ credits_charged: number }>(
        db,
        sql`select credits_charged from video_tasks`,
      );
      expect(rows).toEqual([{ credits_charged: 17 }]);
      const [column] = await queryRows<{ is_nullable: string; column_default: string | null }>(
        db,
        sql`select is_nullable, column_default from information_schema.columns
            where table_name = 'video_tasks' and column_name = 'credits_charged'`,
      );
      expect(column).toEqual({ is_nullable: 'NO', column_default: null });
      await expect(insertTask('00000000-0000-4000-8000-0000000000a2')).rejects.toThrow();
    } finally {
      await database.dispose();
    }
  });
});
