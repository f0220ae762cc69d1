/**
 * Migration 0015 (issue 32, item 3): a task's status and failure are stored as catalogue keys
 * (status_text, error_text). Tasks that exist when it runs get the key of the English sentence
 * they hold, with its values (a queue position, the credits refunded); a sentence it does not know
 * keeps no key and is shown as it is.
 */
import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ApiText, type MessageKey } from '../../server/core/api-messages.ts';
import { queryRows } from '../../server/core/db.ts';
import { allDatabaseKinds, createTestDatabase } from '../helpers/database.ts';

const MIGRATION = new URL('../../server/db/migrations/0015_task_message_keys.sql', import.meta.url);

/** The English a key renders: what the server stored before 0015. */
const english = (key: MessageKey, params: Record<string, number> = {}) =>
  new ApiText(key, params).render('en');

const OLD_ROWS: [status: string | null, error: string | null][] = [
  [english('task.queued'), null],
  [english('task.provider_queue_at', { position: 4 }), null],
  [english('task.failed'), english('task.failure.content_policy', { credits: 17 })],
  [english('task.failed'), english('task.failure.result', { seconds: 8, credits: 20 })],
  [english('task.failed'), english('task.failure.deadline', { credits: 17 })],
  ['Failed', 'The renderer crashed.'],
  ['Something nobody wrote', null],
];

describe.each(allDatabaseKinds)('migration 0015_task_message_keys on %s', (kind) => {
  it("turns each task's known English into its key and values", async () => {
    const database = await createTestDatabase(kind);
    const { db } = database;
    try {
      await db.execute(sql`alter table video_tasks drop column status_text`);
      await db.execute(sql`alter table video_tasks drop column error_text`);
      await db.execute(
        sql`insert into users (id, email, provider) values
            ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'local')`,
      );
      for (const [i, [status, error]] of OLD_ROWS.entries()) {
        await db.execute(
          sql`insert into video_tasks (id, user_id, model, mode, prompt, provider, deadline_at,
                                       credits_charged, status_message, error_message)
              values (${`00000000-0000-4000-8000-0000000000a${i}`}::uuid,
                      '00000000-0000-4000-8000-000000000001', 'veo3', 'text', 'before 0015',
                      'local', now(), 17, ${status}, ${error})`,
        );
      }
      for (const statement of (await readFile(MIGRATION, 'utf8')).split(
        '--> statement-breakpoint',
      )) {
        await db.execute(sql.raw(statement));
      }
      const rows = await queryRows<{ status_text: unknown; error_text: unknown }>(
        db,
        sql`select status_text, error_text from video_tasks order by id`,
      );
      expect(rows).toEqual([
        { status_text: { key: 'task.queued', params: {} }, error_text: null },
        {
          status_text: { key: 'task.provider_queue_at', params: { position: 4 } },
          error_text: null,
        },
        {
          status_text: { key: 'task.failed', params: {} },
          error_text: { key: 'task.failure.content_policy', params: { credits: 17 } },
        },
        {
          status_text: { key: 'task.failed', params: {} },
          error_text: { key: 'task.failure.result', params: { seconds: 8, credits: 20 } },
        },
        {
          status_text: { key: 'task.failed', params: {} },
          error_text: { key: 'task.failure.deadline', params: { credits: 17 } },
        },
        { status_text: { key: 'task.failed', params: {} }, error_text: null },
        { status_text: null, error_text: null },
      ]);
      // What the migration made renders back to the English the row held.
      for (const [i, row] of rows.entries()) {
        const stored = row.error_text as { key: MessageKey; params: Record<string, number> } | null;
        if (stored) expect(english(stored.key, stored.params)).toBe(OLD_ROWS[i]![1]);
      }
    } finally {
      await database.dispose();
    }
  });
});
