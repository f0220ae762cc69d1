/**
 * Kept releases share their unchanged files (issue 19): before a new release goes live, each of
 * its files whose bytes equal the same path's file in the live release is replaced by a hard link
 * to that file, so DATA_DIR grows with what changed, not with a copy of the whole site per
 * release. Safe because a release's files are never written after it is built (the static server
 * keeps its compressed copies in memory). Pruning an old release removes only its links; the
 * bytes stay while a newer release links them. Sharing is a saving, never a condition: a file
 * that cannot be linked stays a copy.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { link, lstat, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { forEachLimited } from '../../core/concurrency.ts';
import { currentReleaseId, siteDirs } from './release.ts';

export interface SharedFiles {
  /** Files of the new release looked at. */
  files: number;
  /** Of those, now hard links to the live release's file. */
  shared: number;
  /** Bytes the shared files no longer take twice. */
  sharedBytes: number;
  /** The first failure other than "nothing to share" (those files stay copies). */
  error: Error | null;
}

/** Errors that say this file system keeps no hard links: no file of the release will link. */
const LINKS_UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'ENOSYS']);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Replaces `file` by a hard link to `live` when their bytes are equal; returns the bytes saved,
 * or null when they differ (or `live` is not there). The link is made under a temporary name in
 * the same folder and renamed over the file, so the path never goes missing.
 */
async function linkIfEqual(file: string, live: string): Promise<number | null> {
  const [mine, theirs] = await Promise.all([lstat(file), lstat(live).catch(() => null)]);
  if (!theirs?.isFile() || !mine.isFile() || mine.size !== theirs.size) return null;
  if (mine.dev === theirs.dev && mine.ino === theirs.ino) return 0; // already one file
  const [a, b] = await Promise.all([sha256Of(file), sha256Of(live)]);
  if (a !== b) return null;
  const tmp = path.join(
    path.dirname(file),
    `.share-${randomBytes(6).toString('hex')}-${path.basename(file)}`,
  );
  try {
    await link(live, tmp);
    await rename(tmp, file);
  } finally {
    await rm(tmp, { force: true });
  }
  return mine.size;
}

/**
 * Hard-links every file of the release in `dir` (paths relative, with forward slashes, as in its
 * manifest) whose bytes equal the same path's file in the release folder `liveDir`.
 */
async function shareUnchangedFiles(
  dir: string,
  files: readonly string[],
  liveDir: string,
  concurrency = 8,
): Promise<SharedFiles> {
  const result: SharedFiles = { files: files.length, shared: 0, sharedBytes: 0, error: null };
  let unsupported = false;
  await forEachLimited(files, concurrency, async (file) => {
    if (unsupported) return;
    const parts = file.split('/');
    try {
      const saved = await linkIfEqual(path.join(dir, ...parts), path.join(liveDir, ...parts));
      if (saved === null) return;
      result.shared += 1;
      result.sharedBytes += saved;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      // The live release was pruned meanwhile (another process switched): nothing to share.
      if (code === 'ENOENT') return;
      if (LINKS_UNSUPPORTED.has(code)) unsupported = true;
      result.error ??= error as Error;
    }
  });
  return result;
}

/**
 * Shares the unchanged files of release `id` (in `dir`, not live yet) with the live release of
 * `dataDir` and logs what it saved; nothing to share before the first release.
 */
export async function shareWithLiveRelease(
  dataDir: string,
  id: string,
  dir: string,
  files: readonly string[],
  log: { info(obj: object, msg?: string): void; error(obj: object, msg?: string): void },
): Promise<SharedFiles> {
  const live = await currentReleaseId(dataDir);
  const result =
    live && live !== id
      ? await shareUnchangedFiles(dir, files, path.join(siteDirs(dataDir).releases, live))
      : { files: files.length, shared: 0, sharedBytes: 0, error: null };
  const { shared, sharedBytes } = result;
  log.info(
    { release: id, previous: live, files: files.length, shared, sharedBytes },
    describeShared(result),
  );
  if (result.error) {
    log.error(
      { err: result.error, release: id, previous: live },
      'some files of the site release could not be hard-linked to the previous release; they stay copies',
    );
  }
  return result;
}

/** The log line's message: `shared 41 of 45 files with the previous release (3.2 MB)`. */
function describeShared(result: SharedFiles): string {
  const mb = (result.sharedBytes / (1024 * 1024)).toFixed(1);
  return `shared ${result.shared} of ${result.files} files with the previous release (${mb} MB)`;
}
