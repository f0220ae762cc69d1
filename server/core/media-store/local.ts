/**
 * The media store as files under DATA_DIR (the default): key `media/x.mp4` is the file
 * `${dataDir}/media/x.mp4`, so the layout on disk is the one the app always had. Only keys under
 * the MEDIA_KEYS prefixes are reachable: DATA_DIR also holds the database, which no key may name.
 * A put writes a temporary file next to the target and renames it over, so a reader sees the old
 * object or the new one, never half a file. The content type comes from the extension.
 */
import { createReadStream, createWriteStream, constants as fsConstants } from 'node:fs';
import { access, mkdir, open, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertKey,
  InvalidKeyError,
  MEDIA_KEYS,
  RangeNotSatisfiableError,
  type MediaStore,
  type ObjectRead,
  type PutBody,
  type PutOptions,
  type StoredObject,
} from './types.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The content type a file is served with, from its extension. */
function contentTypeOf(key: string): string {
  return CONTENT_TYPES[path.extname(key).toLowerCase()] ?? 'application/octet-stream';
}

const PREFIXES = Object.values(MEDIA_KEYS);

/**
 * Temporary files carry `~`, which no key can (KEY_PATTERN), so they never collide with an
 * object and `list` can skip them.
 */
const TEMP_MARK = '~';

const isMissing = (error: unknown) =>
  ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

export function createLocalMediaStore(dataDir: string): MediaStore {
  const root = path.resolve(dataDir);

  /** The file behind a key, after checking the key is one the store may touch. */
  function fileOf(key: string): string {
    assertKey(key);
    if (!PREFIXES.some((prefix) => key.startsWith(prefix)) || path.posix.normalize(key) !== key) {
      throw new InvalidKeyError(
        `media key ${JSON.stringify(key)} is outside the media directories (${PREFIXES.join(', ')})`,
      );
    }
    return path.join(root, ...key.split('/'));
  }

  function describe(size: number, mtime: Date, key: string): StoredObject {
    return {
      size,
      contentType: contentTypeOf(key),
      etag: `W/"${size.toString(16)}-${Math.floor(mtime.getTime()).toString(16)}"`,
      lastModified: mtime,
    };
  }

  async function put(key: string, body: PutBody, _options: PutOptions): Promise<void> {
    const file = fileOf(key);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = path.join(
      path.dirname(file),
      `.${TEMP_MARK}${path.basename(file)}.${randomBytes(6).toString('hex')}`,
    );
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        await writeFile(temp, body, { flush: true });
      } else {
        const source = body instanceof Readable ? body : createReadStream(body.file);
        await pipeline(source, createWriteStream(temp, { flush: true }));
      }
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
  }

  async function get(key: string, range?: { start: number; end?: number }) {
    const file = fileOf(key);
    // Open first and stat the handle: a put renaming a new file in meanwhile cannot mix the
    // old object's size with the new one's bytes.
    const handle = await open(file, 'r').catch((error: unknown) => {
      if (isMissing(error)) return null;
      throw error;
    });
    if (!handle) return null;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      let bounds: ObjectRead['range'] = null;
      if (range) {
        checkRange(range);
        if (range.start >= info.size) throw new RangeNotSatisfiableError(info.size);
        bounds = { start: range.start, end: Math.min(range.end ?? Infinity, info.size - 1) };
      }
      const body = handle.createReadStream(bounds ?? {});
      return { ...describe(info.size, info.mtime, key), body, range: bounds };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async function head(key: string): Promise<StoredObject | null> {
    const file = fileOf(key);
    try {
      const info = await stat(file);
      return info.isFile() ? describe(info.size, info.mtime, key) : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function remove(key: string): Promise<void> {
    try {
      await unlink(fileOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /**
   * Keys under `dir` (a directory key such as `media`) that start with `prefix`, in key order,
   * reading one directory at a time.
   */
  async function* walk(dir: string, prefix: string): AsyncGenerator<string> {
    let entries;
    try {
      entries = await readdir(path.join(root, ...dir.split('/')), { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    // A directory's keys all start with `name/`: sorting it as that string puts them in the
    // places they take among the files' keys (`a-b` < `a/x`).
    const named = entries
      .filter((entry) => !entry.name.includes(TEMP_MARK))
      .filter((entry) => entry.isFile() || entry.isDirectory())
      .map((entry) => ({ entry, sortKey: entry.isDirectory() ? `${entry.name}/` : entry.name }))
      .sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0));
    for (const { entry } of named) {
      const key = `${dir}/${entry.name}`;
      if (!entry.isDirectory()) {
        if (key.startsWith(prefix)) yield key;
      } else if (`${key}/`.startsWith(prefix) || prefix.startsWith(`${key}/`)) {
        yield* walk(key, prefix);
      }
    }
  }

  async function* list(prefix: string): AsyncGenerator<string> {
    if (!PREFIXES.some((allowed) => prefix.startsWith(allowed)) || prefix.includes('..')) {
      throw new InvalidKeyError(
        `media prefix ${JSON.stringify(prefix)} is outside the media directories (${PREFIXES.join(', ')})`,
      );
    }
    // `samples/ab` lists `samples/abc/…` too, like S3: walk the directory the prefix ends in.
    yield* walk(prefix.slice(0, prefix.lastIndexOf('/')), prefix);
  }

  return {
    kind: 'local',
    description: `files under ${root}`,
    urlTtlSeconds: null,
    put,
    get,
    head,
    delete: remove,
    list,
    publicUrl: async (key) => {
      fileOf(key);
      return null;
    },
    async check() {
      const media = path.join(root, 'media');
      await mkdir(media, { recursive: true });
      await access(media, fsConstants.W_OK);
    },
    async close() {},
  };
}

/**
 * A range's numbers are whole, `start` non-negative and `end`, when given, not before it (the
 * HTTP layer parses Range headers; anything else reaching a store is a bug, shared by s3.ts).
 */
export function checkRange({ start, end }: { start: number; end?: number }): void {
  const whole = (n: number) => Number.isSafeInteger(n) && n >= 0;
  if (!whole(start) || (end !== undefined && (!whole(end) || end < start))) {
    throw new RangeError(`invalid byte range ${start}-${end ?? ''}`);
  }
}
