/**
 * Vitest's global setup, once per run: a migrated, empty PGlite database dumped to a file. Every
 * test file's in-memory PGlite starts as a copy of it (tests/helpers/database.ts): about a quarter
 * of a second instead of the second and more that initdb and the migrations take each time.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/core/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump (a tar file). */
    pgliteSnapshot: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const file = path.resolve(import.meta.dirname, '../../.test-output/pglite-migrated.tar');
  await mkdir(path.dirname(file), { recursive: true });
  const database = await openPglite();
  try {
    await database.migrate();
    await writeFile(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('pgliteSnapshot', file);
}
