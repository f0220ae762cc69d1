/**
 * The media store: everything the product keeps besides database rows (finished videos and their
 * posters, image-mode uploads, blog images, sample clips, published site releases) is an object
 * under a key such as `media/3f…e1.mp4`. Two adapters: files under DATA_DIR (local.ts, the
 * default: keys are paths under DATA_DIR, so the layout on disk is the one it always was) and an
 * S3-compatible bucket (s3.ts). Bodies stream both ways; nothing reads a whole video into memory.
 */
import type { Readable } from 'node:stream';

/** Where the keys of each kind of object start. */
export const MEDIA_KEYS = {
  /** Finished videos and posters: `media/{random}.mp4|jpg`, public at `/media/…`. */
  media: 'media/',
  /** Image-mode inputs `uploads/{taskId}.png` (private) and blog images `uploads/blog/…` (public). */
  uploads: 'uploads/',
  blogUploads: 'uploads/blog/',
  /** Rendered sample clips `samples/{cacheKey}/{id}.mp4|jpg`. */
  samples: 'samples/',
  /** Published site releases `releases/{id}/…` and the live pointer `releases/live.json`. */
  releases: 'releases/',
  /** Readiness and self-test probes. */
  probes: '.probes/',
} as const;

/** A key: lowercase-safe path segments, no `..`, no leading slash. */
const KEY_PATTERN = /^(?!.*\.\.)[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._@+=-]+)*$/;

export interface StoredObject {
  size: number;
  contentType: string;
  etag: string | null;
  lastModified: Date | null;
}

export interface ObjectRead extends StoredObject {
  body: Readable;
  /** Set on a range read: the inclusive byte range `body` holds (`size` is the whole object's). */
  range: { start: number; end: number } | null;
}

/** What `put` takes: bytes in memory (small things: images, JSON), a stream, or a file to stream. */
export type PutBody = Buffer | string | Readable | { file: string };

export interface PutOptions {
  contentType: string;
  /** Stored with the object and answered on reads (S3 and the CDN in front of it honour it). */
  cacheControl?: string;
}

export interface MediaStore {
  readonly kind: 'local' | 's3';
  /** For logs and health answers: `files under /srv/data` or `s3://bucket at https://…`. */
  readonly description: string;
  /** Stores (or replaces) the object; resolves once it is complete and readable by every instance. */
  put(key: string, body: PutBody, options: PutOptions): Promise<void>;
  /**
   * The object's bytes, or null when there is none. `range` is inclusive like HTTP's; an `end`
   * past the object is clamped; a `start` at or past the end throws RangeNotSatisfiableError.
   */
  get(key: string, range?: { start: number; end?: number }): Promise<ObjectRead | null>;
  head(key: string): Promise<StoredObject | null>;
  /** Removes the object; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** Every key under `prefix`, in key order, without loading them all at once. */
  list(prefix: string): AsyncIterable<string>;
  /**
   * Where a browser fetches the object itself. Local: null (the app serves it from disk). S3:
   * MEDIA_PUBLIC_URL + key when a CDN fronts the bucket, otherwise a presigned GET URL valid
   * for MEDIA_URL_TTL_SECONDS.
   */
  publicUrl(key: string): Promise<string | null>;
  /** Seconds a presigned URL lives (null: URLs do not expire). Redirects are cached for less. */
  readonly urlTtlSeconds: number | null;
  /** Cheap reachability for readiness probes: the directory is writable / the bucket answers. */
  check(): Promise<void>;
  /** Frees sockets (S3 client). */
  close(): Promise<void>;
}

export class RangeNotSatisfiableError extends Error {
  override name = 'RangeNotSatisfiableError';
  readonly size: number;
  constructor(size: number) {
    super(`the range starts past the end of the object (${size} bytes)`);
    this.size = size;
  }
}

export class InvalidKeyError extends Error {
  override name = 'InvalidKeyError';
}

export function assertKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.length > 512) {
    throw new InvalidKeyError(`invalid media key ${JSON.stringify(key)}`);
  }
}
