/**
 * Vitest's global setup, once per run: a migrated, empty PGlite database dumped to a file. Every
 * test file's in-memory PGlite starts as a copy of it (tests/helpers/database.ts): about a quarter
 * of a second instead of the second and more that initdb and the migrations take each time.
 * With TEST_DATABASE_URL, likewise a migrated PostgreSQL database every test database is created
 * from (CREATE DATABASE … TEMPLATE), dropped when the run ends.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openPglite } from '../../server/core/db-pglite.ts';
import { openPostgres } from '../../server/core/db-postgres.ts';
import { createPostgresDatabase, type PostgresDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump (a tar file). */
    pgliteSnapshot: string;
    /** The migrated PostgreSQL database to copy (TEST_DATABASE_URL only; nobody connects to it). */
    postgresTemplate: string | undefined;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Side by side: the PostgreSQL migrations mostly wait on the server.
  const [snapshot, template] = await Promise.all([pgliteSnapshot(), postgresTemplate()]);
  project.provide('pgliteSnapshot', snapshot);
  project.provide('postgresTemplate', template?.name);
  return async () => {
    await template?.drop();
  };
}

/** Writes the migrated PGlite dump and answers its path. */
async function pgliteSnapshot(): Promise<string> {
  const file = path.resolve(import.meta.dirname, '../../.test-output/pglite-migrated.tar');
  await mkdir(path.dirname(file), { recursive: true });
  const database = await openPglite();
  try {
    await database.migrate();
    await writeFile(file, Buffer.from(await (await database.dump!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  return file;
}

/** A migrated PostgreSQL database with no connection left open; null without TEST_DATABASE_URL. */
async function postgresTemplate(): Promise<PostgresDatabase | null> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) return null;
  const template = await createPostgresDatabase(baseUrl, 't_template_');
  const database = openPostgres(template.url, 1);
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    await template.drop();
    throw error;
  }
  // CREATE DATABASE … TEMPLATE refuses a database anyone is connected to.
  await database.close();
  return template;
}
