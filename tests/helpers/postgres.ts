/** Fresh PostgreSQL databases for tests, the resilience suite and the bench, dropped when done. */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface PostgresDatabase {
  name: string;
  url: string;
  /** Drops the database, closing whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** Runs one statement on the server's maintenance connection (`adminUrl`). */
async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/**
 * Creates a database named `<prefix><random hex>` on the server of `adminUrl`: empty, or a copy
 * of `template` (a database nobody is connected to).
 */
export async function createPostgresDatabase(
  adminUrl: string,
  prefix: string,
  template?: string,
): Promise<PostgresDatabase> {
  const name = `${prefix}${randomBytes(5).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
