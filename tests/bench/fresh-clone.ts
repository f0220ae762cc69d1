/**
 * A fresh clone of this checkout for the bench's `start` section: what `git clone` and `npm ci`
 * leave, made in a second. The clone holds the working tree's files that git would commit (tracked
 * and new, never ignored ones: no data/, dist/, .astro/, .env), so it measures the code as it is
 * now, uncommitted changes included. Its node_modules holds a link to each installed package
 * but none of the caches a build leaves there (Astro's content store, the site builds' staging
 * and lock, the sample clips): like a fresh install, Astro and the server start from nothing.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../helpers/process.ts';

const run = promisify(execFile);

/** What builds and the server write under node_modules: absent after `npm ci`. */
const CACHES = new Set(['.cache', '.astro', '.astro-articles', '.vite', '.vite-temp']);

export interface FreshClone {
  /** The clone's root: run `npm start` here. */
  dir: string;
  remove(): Promise<void>;
}

export async function freshClone(root = PROJECT_ROOT): Promise<FreshClone> {
  const parent = await mkdtemp(path.join(tmpdir(), 'veo3-clone-'));
  const dir = path.join(parent, 'checkout');
  const { stdout } = await run(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    {
      cwd: root,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const files = stdout.split('\0').filter(Boolean);
  const folders = new Set(files.map((file) => path.dirname(file)));
  for (const folder of folders) await mkdir(path.join(dir, folder), { recursive: true });
  for (const file of files) {
    await copyFile(path.join(root, file), path.join(dir, file)).catch((error: unknown) => {
      // Tracked but deleted in the working tree: a clone of it would not have it either.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
  const modules = path.join(dir, 'node_modules');
  await mkdir(modules);
  for (const name of await readdir(path.join(root, 'node_modules'))) {
    if (CACHES.has(name)) continue;
    await symlink(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  return { dir, remove: () => rm(parent, { recursive: true, force: true }) };
}
