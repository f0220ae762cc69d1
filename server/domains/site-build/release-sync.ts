/**
 * Following the bucket's live release (SITE_PUBLISH=s3 with SERVE_SITE): an instance that did not
 * build a release downloads it from the bucket into its own DATA_DIR/site/releases/<id> (into a
 * temporary folder first, then renamed, so a half-downloaded release is never served), switches
 * `current` and reloads the live index. It learns of a new pointer from the builder's NOTIFY on
 * 'site_release', and, for a notification lost to a pooler or a dropped connection, by reading
 * the pointer every 30 s. At start-up `currentFromBucket` decides between syncing, publishing
 * what is on disk and building.
 */
import { text } from 'node:stream/consumers';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaStore } from '../../core/media-store/types.ts';
import { shareWithLiveRelease } from './release-dedupe.ts';
import { readLivePointer, releaseKey, type PublishLogger, type Turn } from './release-publish.ts';
import { forEachLimited } from '../../core/concurrency.ts';
import {
  currentReleaseId,
  ARTICLE_INDEX,
  MANIFEST,
  pruneReleases,
  readManifest,
  siteDirs,
  switchCurrent,
  writeManifest,
  type ReleaseManifest,
} from './release.ts';
import type { SiteBuilder } from './service.ts';

/** One turn at a time: the builder's switch and a sync's switch never interleave. */
export function createTurn(): Turn {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>) => {
    const result = tail.then(() => fn());
    tail = result.catch(() => {});
    return result;
  };
}

/** Where downloads are assembled: beside `releases/`, so the local prune never sees them. */
const syncDir = (dataDir: string) => path.join(siteDirs(dataDir).root, '.sync');

/** A download folder this old belongs to a process that was killed mid-download. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

/** A file name from a manifest that stays inside the release folder. */
function safeRelative(file: unknown): file is string {
  return (
    typeof file === 'string' &&
    file.length > 0 &&
    !file.startsWith('/') &&
    !file.includes('\\') &&
    !file.includes('\0') &&
    file.split('/').every((part) => part !== '' && part !== '.' && part !== '..')
  );
}

/** A release's manifest as the bucket holds it. */
async function readRemoteManifest(store: MediaStore, id: string): Promise<ReleaseManifest> {
  const object = await store.get(releaseKey(id, MANIFEST));
  if (!object) {
    throw new Error(
      `Site release ${id} is live in ${store.description} but its ${MANIFEST} is missing: publish again (npm run build, or edit a post).`,
    );
  }
  const manifest = JSON.parse(await text(object.body)) as ReleaseManifest;
  if (manifest.id !== id || !Array.isArray(manifest.files) || !manifest.files.every(safeRelative)) {
    throw new Error(`${releaseKey(id, MANIFEST)} in ${store.description} is not a valid manifest`);
  }
  return manifest;
}

/**
 * Makes release `id` present under DATA_DIR/site/releases (downloaded unless already there) and
 * returns its manifest. Never touches `current`.
 */
export async function downloadRelease(
  store: MediaStore,
  dataDir: string,
  id: string,
  log: PublishLogger,
  concurrency = 4,
): Promise<ReleaseManifest> {
  const { releases } = siteDirs(dataDir);
  const dir = path.join(releases, id);
  const present = await readManifest(dir);
  if (present?.id === id) return present;
  const manifest = await readRemoteManifest(store, id);
  const staging = syncDir(dataDir);
  await mkdir(staging, { recursive: true });
  await removeAbandoned(staging);
  const tmp = path.join(staging, `${id}-${process.pid}-${Date.now()}`);
  try {
    await forEachLimited(manifest.files, concurrency, async (file) => {
      const object = await store.get(releaseKey(id, file));
      if (!object) {
        throw new Error(`${releaseKey(id, file)} is missing from ${store.description}`);
      }
      const target = path.join(tmp, ...file.split('/'));
      await mkdir(path.dirname(target), { recursive: true });
      await pipeline(object.body, createWriteStream(target));
    });
    const index = await store.get(releaseKey(id, ARTICLE_INDEX));
    if (index) await pipeline(index.body, createWriteStream(path.join(tmp, ARTICLE_INDEX)));
    await writeManifest(tmp, manifest);
    // Unchanged files become hard links to the live release's, as a build's do (service.ts).
    await shareWithLiveRelease(dataDir, id, tmp, manifest.files, log);
    await mkdir(releases, { recursive: true });
    // A folder without a manifest is a build that died before finishing it.
    await rm(dir, { recursive: true, force: true });
    try {
      await rename(tmp, dir);
    } catch (error) {
      // Another process sharing this DATA_DIR finished the same download first.
      if ((await readManifest(dir))?.id !== id) throw error;
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return manifest;
}

async function removeAbandoned(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

export interface ReleaseSyncOptions {
  store: MediaStore;
  dataDir: string;
  log: PublishLogger;
  /** The same turn the builder's switch takes (plugin.ts creates one per instance). */
  turn: Turn;
  /** After `current` switched here (the static server reloads its index). */
  onSwitch: (manifest: ReleaseManifest) => Promise<void>;
  /**
   * Subscribes to the builder's notifications: `changed` on each one, and when listening
   * (re)starts after notifications may have been lost. Null: polling only (DATABASE_NOTIFY=poll).
   */
  listen: ((changed: () => void) => Promise<() => Promise<void>>) | null;
  /** How often the pointer is read regardless (default 30 s). */
  pollMs?: number;
}

export function createReleaseSync(opts: ReleaseSyncOptions) {
  const { store, dataDir, log } = opts;
  let running: Promise<ReleaseManifest | null> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | null = null;
  let unlisten: (() => Promise<void>) | null = null;
  let stopped = false;

  /** One pass: the live release downloaded and switched to, or null when the bucket has none. */
  async function syncOnce(): Promise<ReleaseManifest | null> {
    const pointer = await readLivePointer(store);
    if (!pointer) return null;
    const local = await currentReleaseId(dataDir);
    if (local === pointer.id) return readManifest(siteDirs(dataDir).current);
    const started = Date.now();
    const manifest = await downloadRelease(store, dataDir, pointer.id, log);
    return opts.turn(async () => {
      // The builder here may have published a newer one meanwhile: never switch back past it.
      const latest = await readLivePointer(store);
      if (latest?.id !== pointer.id) {
        again = true;
        return null;
      }
      if ((await currentReleaseId(dataDir)) !== pointer.id) {
        await switchCurrent(dataDir, pointer.id);
        await pruneReleases(dataDir);
        await opts.onSwitch(manifest);
        log.info(
          { release: pointer.id, previous: local, ms: Date.now() - started },
          `site release ${pointer.id} synced from ${store.description}`,
        );
      }
      return manifest;
    });
  }

  /** Brings this instance to the bucket's live release; calls during a pass make one more pass. */
  function syncNow(): Promise<ReleaseManifest | null> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      let result: ReleaseManifest | null;
      do {
        again = false;
        result = await syncOnce();
      } while (again && !stopped);
      return result;
    })().finally(() => {
      running = null;
    });
    return running;
  }

  const syncInBackground = () => {
    if (stopped) return;
    syncNow().catch((err: unknown) => {
      if (!stopped) log.warn({ err }, 'could not sync the site release from the bucket');
    });
  };

  return {
    syncNow,

    /** Starts following the pointer: notifications, and a poll as the fallback. */
    async start(): Promise<void> {
      stopped = false;
      if (opts.listen) unlisten = await opts.listen(syncInBackground);
      timer = setInterval(syncInBackground, opts.pollMs ?? 30_000);
      timer.unref();
    },

    /** Stops following; a pass under way finishes. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = null;
      await unlisten?.();
      unlisten = null;
      await running?.catch(() => {});
    },
  };
}

export type ReleaseSync = ReturnType<typeof createReleaseSync>;

/**
 * Start-up with SITE_PUBLISH=s3, in the build turn (so instances starting together build once):
 * - the bucket's live release, when it was built from this instance's sources (downloaded when
 *   this instance serves the site and lacks it): nothing is built;
 * - else this instance's own release when it is current, published (the bucket had none, or a
 *   release built from other sources, such as the previous deploy's);
 * - else a new build, which publishes itself.
 */
export async function currentFromBucket(deps: {
  store: MediaStore;
  builder: SiteBuilder;
  /** Null: this instance does not serve the site, so it keeps no copy. */
  sync: ReleaseSync | null;
  publishExisting: (manifest: ReleaseManifest) => Promise<void>;
}): Promise<ReleaseManifest> {
  const { store, builder, sync } = deps;
  const pointer = await readLivePointer(store);
  if (pointer && pointer.sourceHash === (await builder.sourceHash())) {
    const synced = sync ? await sync.syncNow() : await readRemoteManifest(store, pointer.id);
    if (synced) return synced;
  }
  const local = await builder.currentIfFresh();
  if (local) {
    await deps.publishExisting(local);
    return local;
  }
  return builder.build();
}
