import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database } from '../../server/core/db.ts';
import { openPglite } from '../../server/core/db-pglite.ts';
import { lockPath, readLock } from '../../server/core/embedded-lock.ts';
import { verifyPassword } from '../../server/core/passwords.ts';
import { users } from '../../server/db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { PROJECT_ROOT, runScript } from '../helpers/process.ts';

const ACTOR = `cli:${userInfo().username}`;
/** Each command is a new Node process that opens a database: slow on a busy machine. */
const SLOW = { timeout: 180_000 };
const ADMIN = { ADMIN_USERNAME: 'ops', ADMIN_PASSWORD: 'correct horse battery staple' };

/** Settings a developer's .env could hold are set explicitly, so it cannot change the test. */
const baseEnv = (dataDir: string, extra: Record<string, string> = {}) => ({
  ...process.env,
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  DATABASE_URL: '',
  ADMIN_USERNAME: '',
  ADMIN_PASSWORD: '',
  ADMIN_PASSWORD_HASH: '',
  ...extra,
});

/** `npm run admin -- ...args`. */
const run = (args: string[], env: NodeJS.ProcessEnv, input = '') =>
  runScript('scripts/admin.ts', args, env, input);

async function seedCustomer(database: Database, email: string): Promise<string> {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: 'Ann', provider: 'local' })
    .returning({ id: users.id });
  return row!.id;
}

async function customerState(database: Database, email: string) {
  const rows = await queryRows<{ credits: number; can_manage_blog: boolean }>(
    database.db,
    sql`select credits, can_manage_blog from users where email = ${email}`,
  );
  const ledger = await queryRows<{ amount: number; source_type: string; description: string }>(
    database.db,
    sql`select t.amount, t.source_type, t.description from credit_transactions t
        join users u on u.id = t.user_id where u.email = ${email} order by t.created_at`,
  );
  const audit = await queryRows<{ admin_username: string; action: string }>(
    database.db,
    sql`select admin_username, action from admin_actions order by created_at`,
  );
  return { user: rows[0], ledger, audit };
}

describe('npm run admin -- hash-password', SLOW, () => {
  it('prints a scrypt hash of the password read from stdin', async () => {
    const { code, stdout, stderr } = await run(
      ['hash-password'],
      baseEnv(tmpdir()),
      'a long admin password\n',
    );
    expect(code).toBe(0);
    const hash = stdout.trim();
    expect(hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword('a long admin password', hash)).toBe(true);
    expect(stderr).toContain(`ADMIN_PASSWORD_HASH='${hash}'`);
  });

  it('refuses a short password and prints no hash', async () => {
    const { code, stdout, stderr } = await run(['hash-password'], baseEnv(tmpdir()), 'short\n');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain('at least 12 characters');
  });
});

describe('npm run admin on a stopped embedded database', SLOW, () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-cli-'));
    const database = await openPglite(path.join(dataDir, 'db'));
    await database.migrate();
    await seedCustomer(database, 'ann@example.com');
    await database.close();
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('grants blog rights, adjusts credits with a reason and lists what it did', async () => {
    const env = baseEnv(dataDir);
    const grant = await run(['grant-blog', 'Ann@Example.com'], env);
    expect(grant).toMatchObject({ code: 0, stdout: 'ann@example.com can now manage the blog.\n' });

    const give = await run(['adjust-credits', 'ann@example.com', '25', 'Goodwill', 'gesture'], env);
    expect(give.stdout).toBe(
      'Gave 25 credits to ann@example.com; balance now 25. Reason: Goodwill gesture\n',
    );

    const overdraw = await run(['adjust-credits', 'ann@example.com', '-26', 'Correction'], env);
    expect(overdraw.code).toBe(1);
    expect(overdraw.stderr).toContain('This would take the balance below zero (balance 25).');

    const list = await run(['list-admin-actions'], env);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(`${ACTOR}  credits.adjust`);
    expect(lines[1]).toContain(`${ACTOR}  blog_access.grant`);

    // The CLI let go of the database: the lock is gone and the changes are there.
    expect(await readLock(dataDir)).toBeNull();
    const database = await openPglite(path.join(dataDir, 'db'));
    try {
      expect(await customerState(database, 'ann@example.com')).toEqual({
        user: { credits: 25, can_manage_blog: true },
        ledger: [{ amount: 25, source_type: 'admin_adjustment', description: 'Goodwill gesture' }],
        audit: [
          { admin_username: ACTOR, action: 'blog_access.grant' },
          { admin_username: ACTOR, action: 'credits.adjust' },
        ],
      });
    } finally {
      await database.close();
    }
  });

  it.each([
    [['adjust-credits', 'ann@example.com', '0', 'Nothing'], 'other than 0'],
    [['adjust-credits', 'ann@example.com', '2.5', 'Half'], 'whole number'],
    [['adjust-credits', 'ann@example.com', '10'], 'reason of at least 3 characters'],
    [['grant-blog'], 'Missing the customer email'],
    [['revoke-blog', 'nobody@example.com'], 'No customer account has the email nobody@example.com'],
    [['list-admin-actions', '500'], 'from 1 to 100'],
    [['promote', 'ann@example.com'], "Unknown command 'promote'"],
  ])('refuses %j with a clear message', async (args, message) => {
    const { code, stderr } = await run(args, baseEnv(dataDir));
    expect(code).toBe(1);
    expect(stderr).toContain(message);
  });
});

describe('npm run admin while the server holds the embedded database', SLOW, () => {
  let dataDir: string;
  let server: ReturnType<typeof spawn> | null = null;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-cli-server-'));
    const database = await openPglite(path.join(dataDir, 'db'));
    await database.migrate();
    await seedCustomer(database, 'ann@example.com');
    await database.close();
    server = spawn(process.execPath, ['server/main.ts'], {
      cwd: PROJECT_ROOT,
      env: baseEnv(dataDir, { ...ADMIN, PORT: '0', SERVE_SITE: 'false', LOG_LEVEL: 'warn' }),
      stdio: 'ignore',
    });
    // Ready when the server has written its port into the lock.
    for (let i = 0; i < 600; i++) {
      if ((await readLock(dataDir))?.port) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('the server did not start');
  }, 180_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.on('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('says the server must be stopped, or the admin credentials given, and touches nothing', async () => {
    const { code, stderr } = await run(['grant-blog', 'ann@example.com'], baseEnv(dataDir));
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      'The embedded database is in use by the running server. Stop it (Ctrl+C in the npm start terminal) or set ADMIN_USERNAME/ADMIN_PASSWORD so the CLI can use its admin API.',
    );
  });

  it("works through the running server's admin API with ADMIN_USERNAME/ADMIN_PASSWORD", async () => {
    const env = baseEnv(dataDir, ADMIN);
    const give = await run(['adjust-credits', 'ann@example.com', '40', 'Welcome bonus'], env);
    expect(give).toMatchObject({
      code: 0,
      stdout: 'Gave 40 credits to ann@example.com; balance now 40. Reason: Welcome bonus\n',
    });
    const list = await run(['list-admin-actions', '1'], env);
    expect(list.stdout).toContain('ops  credits.adjust');
    const wrong = await run(['grant-blog', 'ann@example.com'], {
      ...env,
      ADMIN_PASSWORD: 'not the password',
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('Wrong username or password.');
  });

  it('keeps a second server off the same embedded database', async () => {
    const second = await runScript(
      'server/main.ts',
      [],
      baseEnv(dataDir, { PORT: '0', SERVE_SITE: 'false' }),
    );
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('is in use by another server');
  });
});

describe('the server and a running admin CLI', SLOW, () => {
  it('the server refuses to open an embedded database the CLI holds', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-cli-lock-'));
    try {
      // This test process stands in for a CLI that is still working.
      await writeFile(
        lockPath(dataDir),
        JSON.stringify({ pid: process.pid, owner: 'admin-cli', port: null, startedAt: '' }),
      );
      const result = await runScript(
        'server/main.ts',
        [],
        baseEnv(dataDir, { PORT: '0', SERVE_SITE: 'false' }),
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`is in use by the admin CLI (pid ${process.pid})`);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-cli-stale-'));
    try {
      const database = await openPglite(path.join(dataDir, 'db'));
      await database.migrate();
      await database.close();
      await writeFile(
        lockPath(dataDir),
        JSON.stringify({ pid: 2 ** 22 + 1, owner: 'server', port: 1, startedAt: '' }),
      );
      const { code, stdout } = await run(['list-admin-actions'], baseEnv(dataDir));
      expect(code).toBe(0);
      expect(stdout).toBe('No admin actions yet.\n');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('npm run admin against PostgreSQL', SLOW, () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    await seedCustomer(database, 'pg@example.com');
  });
  afterAll(() => database.dispose());

  it('works on the database directly, next to other open connections', async () => {
    const env = baseEnv(tmpdir(), { DATABASE_URL: database.url! });
    const give = await run(['adjust-credits', 'pg@example.com', '30', 'Launch credit'], env);
    expect(give.code).toBe(0);
    const take = await run(['adjust-credits', 'pg@example.com', '-10', 'Correction'], env);
    expect(take.stdout).toContain('balance now 20');
    expect((await run(['grant-blog', 'pg@example.com'], env)).code).toBe(0);
    expect((await run(['revoke-blog', 'pg@example.com'], env)).stdout).toBe(
      'pg@example.com can no longer manage the blog.\n',
    );
    expect(await customerState(database, 'pg@example.com')).toEqual({
      user: { credits: 20, can_manage_blog: false },
      ledger: [
        { amount: 30, source_type: 'admin_adjustment', description: 'Launch credit' },
        { amount: -10, source_type: 'admin_adjustment', description: 'Correction' },
      ],
      audit: [
        { admin_username: ACTOR, action: 'credits.adjust' },
        { admin_username: ACTOR, action: 'credits.adjust' },
        { admin_username: ACTOR, action: 'blog_access.grant' },
        { admin_username: ACTOR, action: 'blog_access.revoke' },
      ],
    });
  });
});
