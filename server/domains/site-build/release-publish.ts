/**
 * Publishing a release to the bucket (SITE_PUBLISH=s3), so that every instance, and a CDN in front
 * of the bucket, serves the same one. Each file goes up as `releases/{id}/{file}` with the type
 * and cache policy the app itself would answer with; only when all of them are up does the
 * pointer `releases/live.json` move to the new id, so a failed upload leaves the previous release
 * live everywhere. This instance switches its own `current` in the same turn as the pointer write
 * (never before it: a release this instance served but the bucket never got would differ from
 * what every other instance serves until the next build). Then the other instances are told
 * (NOTIFY), the operator's hook runs (a CDN purge) and releases beyond the newest few are deleted.
 */
import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { isUtf8MimeType, mime } from '@fastify/send';
import { forEachLimited } from '../../core/concurrency.ts';
import { MEDIA_KEYS, type MediaStore } from '../../core/media-store/types.ts';
import { ARTICLE_INDEX, MANIFEST, type ReleaseManifest } from './release.ts';
import { releaseCacheControl } from './static-site.ts';

/** The object naming the live release. */
export const LIVE_POINTER_KEY = `${MEDIA_KEYS.releases}live.json`;

/** What `releases/live.json` holds. */
export interface LivePointer {
  id: string;
  builtAt: string;
  /** How many files the release has (release.json lists them). */
  files: number;
  /** The release live before this one, or null. */
  previous: string | null;
  /** The hash of the inputs it was built from: an instance with other sources builds its own. */
  sourceHash: string;
  publishedAt: string;
}

export interface PublishLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** One turn at a time in this process (release-sync.ts `createTurn`). */
export type Turn = <T>(fn: () => Promise<T>) => Promise<T>;

/** The key of a release's file in the bucket. */
export const releaseKey = (id: string, file: string) => `${MEDIA_KEYS.releases}${id}/${file}`;

/** The content type a release file is served with: the one @fastify/static answers locally. */
function releaseContentType(file: string): string {
  const type = mime.getType(file) ?? 'application/octet-stream';
  return isUtf8MimeType(type) ? `${type}; charset=UTF-8` : type;
}

/** The live pointer, or null when nothing was ever published. */
export async function readLivePointer(store: MediaStore): Promise<LivePointer | null> {
  const object = await store.get(LIVE_POINTER_KEY);
  if (!object) return null;
  const body = await text(object.body);
  let pointer: Partial<LivePointer>;
  try {
    pointer = JSON.parse(body) as Partial<LivePointer>;
  } catch (error) {
    throw new Error(`${LIVE_POINTER_KEY} in ${store.description} is not JSON`, { cause: error });
  }
  if (typeof pointer.id !== 'string' || !/^[A-Za-z0-9_-]+$/.test(pointer.id)) {
    throw new Error(`${LIVE_POINTER_KEY} in ${store.description} names no valid release id`);
  }
  return {
    id: pointer.id,
    builtAt: pointer.builtAt ?? '',
    files: pointer.files ?? 0,
    previous: pointer.previous ?? null,
    sourceHash: pointer.sourceHash ?? '',
    publishedAt: pointer.publishedAt ?? '',
  };
}

const execFileAsync = promisify(execFile);

export interface ReleasePublisherOptions {
  store: MediaStore;
  log: PublishLogger;
  /** Serialises the switch with this instance's syncs from the bucket. */
  turn: Turn;
  /** Tells the other instances the pointer moved (pg_notify on 'site_release'). */
  notify: (id: string) => Promise<void>;
  /** SITE_PUBLISH_HOOK's argv, run after each switch; null: none. */
  hook: string[] | null;
  hookTimeoutMs?: number;
  /** Counts a failed hook (metrics). */
  onHookFailed?: () => void;
  /** Releases kept in the bucket, the live one included (default 3, as on disk). */
  keep?: number;
  /** Uploads in flight at once (default 4). */
  concurrency?: number;
}

export function createReleasePublisher(opts: ReleasePublisherOptions) {
  const { store, log } = opts;
  const keep = Math.max(2, opts.keep ?? 3);
  const concurrency = opts.concurrency ?? 4;
  let hookFailures = 0;

  async function upload(manifest: ReleaseManifest, dir: string): Promise<void> {
    // release.json too: an instance that downloads the release reads its file list from it;
    // and the article pages' index, so that instance's next build renders only changed pages.
    const index = await stat(path.join(dir, ARTICLE_INDEX)).then(
      () => [ARTICLE_INDEX],
      () => [],
    );
    const files = [...manifest.files, MANIFEST, ...index];
    await forEachLimited(files, concurrency, (file) =>
      store.put(
        releaseKey(manifest.id, file),
        { file: path.join(dir, ...file.split('/')) },
        {
          contentType: releaseContentType(file),
          cacheControl:
            file === MANIFEST || file === ARTICLE_INDEX ? 'no-cache' : releaseCacheControl(file),
        },
      ),
    );
  }

  /** Deletes a release's objects, a page of keys at a time. */
  async function deleteRelease(id: string): Promise<void> {
    const keys: string[] = [];
    for await (const key of store.list(`${MEDIA_KEYS.releases}${id}/`)) keys.push(key);
    await forEachLimited(keys, concurrency, (key) => store.delete(key));
  }

  /** Keeps the live release, the previous one and the newest others up to `keep`. */
  async function prune(live: string, previous: string | null): Promise<string[]> {
    const ids = new Set<string>();
    for await (const key of store.list(MEDIA_KEYS.releases)) {
      const rest = key.slice(MEDIA_KEYS.releases.length);
      const slash = rest.indexOf('/');
      if (slash > 0) ids.add(rest.slice(0, slash));
    }
    const kept = new Set([live, ...(previous ? [previous] : [])]);
    for (const id of [...ids].sort().reverse()) {
      if (kept.size >= keep) break;
      kept.add(id);
    }
    const removed = [...ids].filter((id) => !kept.has(id));
    for (const id of removed) await deleteRelease(id);
    return removed;
  }

  async function runHook(id: string): Promise<void> {
    const hook = opts.hook;
    if (!hook) return;
    const [command, ...args] = hook as [string, ...string[]];
    const timeout = opts.hookTimeoutMs ?? 60_000;
    const started = Date.now();
    try {
      const { stdout, stderr } = await execFileAsync(command, args, {
        timeout,
        env: { ...process.env, RELEASE_ID: id },
        maxBuffer: 1024 * 1024,
      });
      log.info(
        { release: id, hook, ms: Date.now() - started, stdout: tail(stdout), stderr: tail(stderr) },
        'site publish hook finished',
      );
    } catch (error) {
      hookFailures += 1;
      opts.onHookFailed?.();
      const failed = error as NodeJS.ErrnoException & {
        killed?: boolean;
        code?: number | string;
        stdout?: string;
        stderr?: string;
      };
      const reason = failed.killed
        ? `timed out after ${timeout / 1000} s`
        : typeof failed.code === 'number'
          ? `exited with ${failed.code}`
          : failed.message;
      log.error(
        { release: id, hook, stdout: tail(failed.stdout), stderr: tail(failed.stderr) },
        `site publish hook ${reason}; release ${id} stays live (fix SITE_PUBLISH_HOOK, or run it by hand with RELEASE_ID=${id})`,
      );
    }
  }

  return {
    /**
     * Uploads the release in `dir`, then (in one turn) moves the pointer to it and calls
     * `goLive` to switch this instance; then notifies, runs the hook and prunes. Throws only
     * before the pointer moved: the previous release then stays live, here and in the bucket.
     */
    async publish(
      manifest: ReleaseManifest,
      dir: string,
      goLive: () => Promise<void>,
    ): Promise<void> {
      const { id } = manifest;
      const started = Date.now();
      try {
        await upload(manifest, dir);
      } catch (error) {
        await deleteRelease(id).catch(() => {}); // what went up of it; prune catches any rest
        throw new Error(
          `Uploading site release ${id} to ${store.description} failed, so the previous release stays live: ${(error as Error).message}`,
          { cause: error },
        );
      }
      const previous = await opts.turn(async () => {
        const before = await readLivePointer(store).catch(() => null);
        const previous = before && before.id !== id ? before.id : (before?.previous ?? null);
        const pointer: LivePointer = {
          id,
          builtAt: manifest.builtAt,
          files: manifest.files.length,
          previous,
          sourceHash: manifest.sourceHash,
          publishedAt: new Date().toISOString(),
        };
        await store.put(LIVE_POINTER_KEY, JSON.stringify(pointer), {
          contentType: 'application/json',
          cacheControl: 'no-cache',
        });
        await goLive();
        return previous;
      });
      log.info(
        { release: id, previous, files: manifest.files.length, ms: Date.now() - started },
        `site release ${id} published to ${store.description}`,
      );
      await opts.notify(id).catch((err: unknown) => {
        log.warn({ err, release: id }, 'could not notify the other instances; they poll for it');
      });
      await runHook(id);
      await prune(id, previous).then(
        (removed) => {
          if (removed.length) log.info({ removed }, 'old site releases deleted from the bucket');
        },
        (err: unknown) => log.warn({ err }, 'could not delete old site releases from the bucket'),
      );
    },

    /** Hooks that failed since start. */
    hookFailures: () => hookFailures,
  };
}

/** The end of a command's output, for a log line. */
function tail(text: string | undefined): string | undefined {
  const trimmed = text?.trim();
  return trimmed ? trimmed.slice(-2000) : undefined;
}
