/**
 * One process at a time on the embedded database. PGlite takes no lock of its own: two
 * processes can open the same DATA_DIR/db and corrupt it. The server, the admin CLI and
 * `npm run build` therefore
 * create DATA_DIR/db.lock exclusively before opening it, with their pid (and the server's port,
 * so the CLI can reach its admin API). A lock whose process is gone (a crash, SIGKILL) is stale
 * and taken over.
 */
import { open, readFile, rm, writeFile } from 'node:fs/promises';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';

export interface LockInfo {
  pid: number;
  owner: 'server' | 'admin-cli' | 'site-build';
  /** The port the server listens on (known after listen; null before). */
  port: number | null;
  startedAt: string;
}

export class EmbeddedDatabaseInUseError extends Error {
  override name = 'EmbeddedDatabaseInUseError';
  readonly holder: LockInfo;
  constructor(holder: LockInfo) {
    super(
      holder.owner === 'server'
        ? `The embedded database is in use by the running server (pid ${holder.pid}).`
        : `The embedded database is in use by ${lockHolderName(holder.owner)} (pid ${holder.pid}). Wait for it to finish, then start again.`,
    );
    this.holder = holder;
  }
}

/** How messages name a lock's holder. */
export function lockHolderName(owner: LockInfo['owner']): string {
  return {
    server: 'the running server',
    'admin-cli': 'the admin CLI',
    'site-build': 'npm run build',
  }[owner];
}

export const lockPath = (dataDir: string) => path.join(dataDir, 'db.lock');

/** Whether process `pid` is running (a lock whose holder is not is stale). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live holder of the lock, or null (no lock file, or its process is gone). */
export async function readLock(dataDir: string): Promise<LockInfo | null> {
  let info: LockInfo;
  try {
    info = JSON.parse(await readFile(lockPath(dataDir), 'utf8')) as LockInfo;
  } catch {
    return null;
  }
  return Number.isInteger(info.pid) && processAlive(info.pid) ? info : null;
}

export interface EmbeddedLock {
  /** Records the port the server listens on, for the admin CLI. */
  setPort(port: number): Promise<void>;
  release(): Promise<void>;
}

/** Takes the lock or throws EmbeddedDatabaseInUseError naming the live holder. */
export async function acquireEmbeddedLock(
  dataDir: string,
  owner: LockInfo['owner'],
): Promise<EmbeddedLock> {
  await mkdir(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const info: LockInfo = {
    pid: process.pid,
    owner,
    port: null,
    startedAt: new Date().toISOString(),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(info));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 2) throw error;
      const holder = await readLock(dataDir);
      if (holder && holder.pid !== process.pid) throw new EmbeddedDatabaseInUseError(holder);
      await rm(file, { force: true }); // stale: its process is gone
    }
  }
  let released = false;
  return {
    async setPort(port) {
      if (released) return;
      info.port = port;
      await writeFile(file, JSON.stringify(info), { mode: 0o600 });
    },
    async release() {
      if (released) return;
      released = true;
      const holder = await readLock(dataDir);
      if (!holder || holder.pid === process.pid) await rm(file, { force: true });
    },
  };
}
