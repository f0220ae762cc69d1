/**
 * `npm run admin -- <command>`: what an operator does from a shell.
 *
 * The commands that change data run the admin service's own functions (ledger row + audit row in
 * one transaction; the audit names `cli:<os user>`). Against PostgreSQL (DATABASE_URL) the CLI
 * works on the database directly, next to any running server. The embedded PGlite database
 * allows one process: when the server holds it (DATA_DIR/db.lock), the CLI goes through the
 * server's admin API with ADMIN_USERNAME / ADMIN_PASSWORD, or says how to proceed.
 */
import { userInfo } from 'node:os';
import { loadConfig, loadDotEnv } from '../server/config.ts';
import type { Database } from '../server/core/db.ts';
import { openPglite } from '../server/core/db-pglite.ts';
import { openPostgres } from '../server/core/db-postgres.ts';
import {
  acquireEmbeddedLock,
  EmbeddedDatabaseInUseError,
  readLock,
  type LockInfo,
} from '../server/core/embedded-lock.ts';
import { AppError } from '../server/core/errors.ts';
import { hashPassword } from '../server/core/passwords.ts';
import type { AdminAction, AdminTransaction, AdminUser } from '../server/contracts/admin.ts';
import { ADJUST_REASON_MAX, ADJUST_REASON_MIN, CREDIT_ADJUST_LIMIT } from '../shared/admin.ts';
import { createAdminMutations } from '../server/domains/admin/mutations.ts';
import { createCreditsService } from '../server/domains/credits/service.ts';
import * as repo from '../server/domains/admin/repository.ts';
import * as lists from '../server/domains/admin/list-repository.ts';
import path from 'node:path';

const USAGE = `Usage: npm run admin -- <command>

  hash-password                              print a scrypt hash for ADMIN_PASSWORD_HASH
                                             (asks twice without echo; reads stdin when piped)
  grant-blog <email>                         let a customer manage the blog
  revoke-blog <email>                        take the blog right away again
  adjust-credits <email> <amount> <reason…>  give (50) or take (-50) credits, with a reason
  list-admin-actions [count]                 the latest admin changes (default 20)
`;

const IN_USE_MESSAGE =
  'The embedded database is in use by the running server. Stop it (Ctrl+C in the npm start terminal) or set ADMIN_USERNAME/ADMIN_PASSWORD so the CLI can use its admin API.';

const MIN_PASSWORD = 12;

class CliError extends Error {}

/** The operations a data command needs, whether it runs on the database or through the API. */
interface Backend {
  findCustomer(email: string): Promise<AdminUser>;
  adjustCredits(
    userId: string,
    amount: number,
    reason: string,
  ): Promise<{ user: AdminUser; transaction: AdminTransaction }>;
  setBlogAccess(userId: string, canManageBlog: boolean): Promise<{ user: AdminUser }>;
  listActions(limit: number): Promise<AdminAction[]>;
  close(): Promise<void>;
}

// ─── hash-password ─────────────────────────────────────────────────────────

/** Reads one line from the terminal without echoing it. */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let value = '';
    const done = (error?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') return done();
        if (char === '\u0003') return done(new CliError('Cancelled.'));
        if (char === '\u007f' || char === '\b') value = value.slice(0, -1);
        else if (char >= ' ') value += char;
      }
    };
    stdin.on('data', onData);
  });
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
}

async function hashPasswordCommand(): Promise<void> {
  let password: string;
  if (process.stdin.isTTY) {
    password = await promptHidden('New admin password: ');
    if ((await promptHidden('Once more: ')) !== password) {
      throw new CliError('The two passwords differ. Nothing was printed; try again.');
    }
  } else {
    password = await readStdin();
  }
  if (password.length < MIN_PASSWORD) {
    throw new CliError(`Choose a password of at least ${MIN_PASSWORD} characters.`);
  }
  const hash = await hashPassword(password);
  process.stdout.write(`${hash}\n`);
  process.stderr.write(
    `Put it in .env, in single quotes (it contains $):\n  ADMIN_PASSWORD_HASH='${hash}'\n`,
  );
}

// ─── Backends ──────────────────────────────────────────────────────────────

function databaseBackend(database: Database, release: () => Promise<void>): Backend {
  const actor = `cli:${userInfo().username}`;
  const admin = createAdminMutations({
    db: database.db,
    credits: createCreditsService(database.db),
  });
  return {
    async findCustomer(email) {
      const user = await repo.findUserByEmail(database.db, email);
      if (!user) throw new CliError(`No customer account has the email ${email}.`);
      return user;
    },
    adjustCredits: (userId, amount, reason) =>
      admin.adjustCredits(actor, { userId, amount, reason }),
    setBlogAccess: (userId, canManageBlog) => admin.setBlogAccess(actor, { userId, canManageBlog }),
    listActions: async (limit) =>
      (await lists.listActions(database.db, { limit, offset: 0, after: null })).actions,
    async close() {
      await database.close();
      await release();
    },
  };
}

async function apiBackend(base: string, username: string, password: string): Promise<Backend> {
  async function call<T>(method: string, url: string, token: string | null, body?: object) {
    let res: Response;
    try {
      res = await fetch(`${base}${url}`, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      throw new CliError(`The running server did not answer at ${base}. Is PORT right?`);
    }
    const json = (await res.json().catch(() => null)) as {
      success: boolean;
      data?: T;
      message?: string;
    } | null;
    if (!res.ok || !json?.success) {
      throw new CliError(json?.message ?? `The server answered ${res.status}.`);
    }
    return json.data as T;
  }

  const { token } = await call<{ token: string }>('POST', '/api/auth/admin-login', null, {
    username,
    password,
  });
  return {
    async findCustomer(email) {
      const wanted = email.trim().toLowerCase();
      const q = encodeURIComponent(wanted);
      const page = await call<{ users: AdminUser[] }>(
        'GET',
        `/api/admin/users?q=${q}&limit=100`,
        token,
      );
      const user = page.users.find((u) => u.email === wanted);
      if (!user) throw new CliError(`No customer account has the email ${email}.`);
      return user;
    },
    adjustCredits: (userId, amount, reason) =>
      call('POST', `/api/admin/users/${userId}/credits`, token, { amount, reason }),
    setBlogAccess: (userId, canManageBlog) =>
      call('POST', `/api/admin/users/${userId}/blog-access`, token, { canManageBlog }),
    listActions: async (limit) =>
      (await call<{ actions: AdminAction[] }>('GET', `/api/admin/actions?limit=${limit}`, token))
        .actions,
    async close() {
      await call('POST', '/api/auth/admin-logout', token).catch(() => {});
    },
  };
}

/** The server's admin API, when the operator gave its credentials; else the clear refusal. */
async function viaServer(holder: LockInfo): Promise<Backend> {
  const username = process.env.ADMIN_USERNAME?.trim();
  const password = process.env.ADMIN_PASSWORD;
  if (!username || !password) throw new CliError(IN_USE_MESSAGE);
  if (!holder.port) {
    throw new CliError(`The server (pid ${holder.pid}) is still starting. Try again in a moment.`);
  }
  return apiBackend(`http://127.0.0.1:${holder.port}`, username, password);
}

async function openBackend(): Promise<Backend> {
  loadDotEnv();
  // The CLI needs only where the data is; the admin settings are the server's business (and a
  // plain ADMIN_PASSWORD given for the API next to a .env hash must not trip the config).
  const env = { ...process.env, ADMIN_USERNAME: '', ADMIN_PASSWORD: '', ADMIN_PASSWORD_HASH: '' };
  const config = loadConfig(env);
  if (config.databaseUrl) {
    const database = openPostgres(config.databaseUrl, 2);
    await database.migrate();
    return databaseBackend(database, async () => {});
  }
  const holder = await readLock(config.dataDir);
  if (holder?.owner === 'server') return viaServer(holder);
  let lock;
  try {
    lock = await acquireEmbeddedLock(config.dataDir, 'admin-cli');
  } catch (error) {
    if (!(error instanceof EmbeddedDatabaseInUseError)) throw error;
    if (error.holder.owner === 'server') return viaServer(error.holder);
    throw new CliError(error.message);
  }
  try {
    const database = await openPglite(path.join(config.dataDir, 'db'));
    await database.migrate();
    return databaseBackend(database, () => lock.release());
  } catch (error) {
    await lock.release();
    throw error;
  }
}

// ─── Data commands ─────────────────────────────────────────────────────────

function parseAmount(text: string | undefined): number {
  const amount = Number(text);
  if (!text || !/^[+-]?\d+$/.test(text) || amount === 0 || Math.abs(amount) > CREDIT_ADJUST_LIMIT) {
    throw new CliError(
      `The amount must be a whole number other than 0, at most ${CREDIT_ADJUST_LIMIT} either way (got ${text ?? 'nothing'}).`,
    );
  }
  return amount;
}

function requireArg(value: string | undefined, what: string): string {
  if (!value) throw new CliError(`Missing ${what}.\n\n${USAGE}`);
  return value;
}

async function runDataCommand(command: string, args: string[]): Promise<void> {
  // Check the arguments before opening anything.
  let work: (backend: Backend) => Promise<string>;
  switch (command) {
    case 'grant-blog':
    case 'revoke-blog': {
      const email = requireArg(args[0], 'the customer email');
      const grant = command === 'grant-blog';
      work = async (backend) => {
        const user = await backend.findCustomer(email);
        await backend.setBlogAccess(user.id, grant);
        return grant
          ? `${user.email} can now manage the blog.`
          : `${user.email} can no longer manage the blog.`;
      };
      break;
    }
    case 'adjust-credits': {
      const email = requireArg(args[0], 'the customer email');
      const amount = parseAmount(args[1]);
      const reason = args.slice(2).join(' ').trim();
      if (reason.length < ADJUST_REASON_MIN) {
        throw new CliError(`Give a reason of at least ${ADJUST_REASON_MIN} characters.`);
      }
      if (reason.length > ADJUST_REASON_MAX) {
        throw new CliError(`Keep the reason under ${ADJUST_REASON_MAX} characters.`);
      }
      work = async (backend) => {
        const user = await backend.findCustomer(email);
        const { transaction } = await backend.adjustCredits(user.id, amount, reason);
        const verb = amount > 0 ? `Gave ${amount} credits to` : `Took ${-amount} credits from`;
        return `${verb} ${user.email}; balance now ${transaction.balance_after}. Reason: ${reason}`;
      };
      break;
    }
    case 'list-admin-actions': {
      const limit = args[0] ? Number(args[0]) : 20;
      if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
        throw new CliError('The count must be a whole number from 1 to 100.');
      }
      work = async (backend) => {
        const actions = await backend.listActions(limit);
        if (actions.length === 0) return 'No admin actions yet.';
        return actions
          .map((a) =>
            [
              a.created_at,
              a.admin,
              a.action,
              a.target_user_id ?? '-',
              JSON.stringify(a.details),
            ].join('  '),
          )
          .join('\n');
      };
      break;
    }
    default:
      throw new CliError(`Unknown command '${command}'.\n\n${USAGE}`);
  }
  const backend = await openBackend();
  try {
    console.log(await work(backend));
  } finally {
    await backend.close();
  }
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!command || command === 'help' || command === '--help' || command === '-h') {
    process.stdout.write(USAGE);
    return;
  }
  if (command === 'hash-password') return hashPasswordCommand();
  return runDataCommand(command, args);
}

main().catch((error: unknown) => {
  if (error instanceof CliError || error instanceof AppError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
