/**
 * One `astro build` at a time per project checkout. Builds for different data directories still
 * share the checkout's `.astro/` and `node_modules/.astro` caches, and two at once corrupt each
 * other's output (tests build in parallel forks; a bench or a second server may build too). The
 * lock is a file created exclusively with the holder's pid; a holder that died leaves a stale file
 * that the next builder removes.
 */
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../../core/embedded-lock.ts';

const POLL_MS = 150;
const GIVE_UP_MS = 15 * 60 * 1000;

/** Runs `fn` while holding `<projectRoot>/node_modules/.cache/astro-build.lock`. */
export async function withProjectBuildLock<T>(
  projectRoot: string,
  fn: () => Promise<T>,
): Promise<T> {
  const dir = path.join(projectRoot, 'node_modules', '.cache');
  const file = path.join(dir, 'astro-build.lock');
  await mkdir(dir, { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      // An empty file is a holder between open and write: wait for it like any other.
      if (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) {
        await rm(file, { force: true });
        continue;
      }
      if (Date.now() - started > GIVE_UP_MS) {
        throw new Error(`Another site build (pid ${holder}) has held ${file} for 15 minutes.`, {
          cause: error,
        });
      }
      await sleep(POLL_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(file, { force: true });
  }
}
