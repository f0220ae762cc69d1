/**
 * In-memory copies of the static release's text files (HTML, JS, CSS, SVG, XML, JSON): plain,
 * and compressed. A release never changes once built, so each file is read once and compressed
 * once per release and encoding, at the highest level, and kept in memory; browsers then get
 * Brotli or gzip instead of the raw bytes (the home page's JavaScript budget is counted as
 * sent), and clients without compression get the plain bytes without a disk read per request.
 */
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type Encoding = 'br' | 'gzip';
/** What the cache holds per file: the plain bytes or one of the compressed forms. */
export type Coding = Encoding | 'identity';

/** Content types of the text files we compress; the same strings @fastify/static sends. */
const TEXT_TYPES: Record<string, string> = {
  html: 'text/html; charset=UTF-8',
  js: 'application/javascript; charset=UTF-8',
  mjs: 'application/javascript; charset=UTF-8',
  css: 'text/css; charset=UTF-8',
  svg: 'image/svg+xml',
  json: 'application/json; charset=UTF-8',
  map: 'application/json; charset=UTF-8',
  webmanifest: 'application/manifest+json',
  xml: 'application/xml',
  txt: 'text/plain; charset=UTF-8',
};

/** How often a held file's place in the eviction order follows its use (ms). */
const REFRESH_MS = 1000;

/** Below this a compressed body saves less than its framing costs. */
const MIN_COMPRESS_BYTES = 512;

/** The content type of a file worth compressing, or null (images, video and fonts are packed already). */
export function compressibleType(file: string): string | null {
  const ext = /\.([a-z0-9]+)$/i.exec(file)?.[1]?.toLowerCase();
  return (ext && TEXT_TYPES[ext]) || null;
}

/**
 * The encoding to answer with, from an Accept-Encoding header: Brotli before gzip, and never one
 * the client ruled out with q=0 (directly or through `*;q=0`).
 */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name.trim(), Number.isFinite(value) ? value : 0);
  }
  const accepts = (name: Encoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function compress(body: Buffer, encoding: Encoding): Promise<Buffer> {
  // Both run on libuv's thread pool, so a first request never blocks the event loop.
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION });
}

export interface CompressedFile {
  body: Buffer;
  /** Strong validator of this encoding's bytes; the plain file's is the one @fastify/send makes. */
  etag: string;
  /** The file's modification time as an HTTP date (plain files only, as @fastify/send sends it). */
  lastModified?: string;
}

/**
 * A bounded in-memory cache of release files, plain and compressed, keyed by absolute path of an
 * immutable release file. Least recently used entries go first once `maxBytes` is passed: "used"
 * to the second (REFRESH_MS), so that a page asked for thousands of times a second is moved to
 * the end of the order once a second, not on every request.
 */
export function createCompressionCache(maxBytes = 64 * 1024 * 1024) {
  const entries = new Map<string, { value: CompressedFile | null; usedAt: number }>();
  const pending = new Map<string, Promise<CompressedFile | null>>();
  let bytes = 0;

  const remember = (key: string, value: CompressedFile | null) => {
    entries.set(key, { value, usedAt: Date.now() });
    bytes += value?.body.length ?? 0;
    for (const [oldKey, old] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldKey);
      bytes -= old.value?.body.length ?? 0;
    }
  };

  async function load(absPath: string, encoding: Coding): Promise<CompressedFile | null> {
    if (encoding === 'identity') {
      const [body, info] = await Promise.all([readFile(absPath), stat(absPath)]);
      // The validator @fastify/send gives the same file, so a copy a browser cached from either
      // path stays valid (its size and mtime never change within a release).
      const etag = `W/"${info.size.toString(16)}-${info.mtime.getTime().toString(16)}"`;
      return { body, etag, lastModified: info.mtime.toUTCString() };
    }
    const raw = await readFile(absPath);
    if (raw.length < MIN_COMPRESS_BYTES) return null;
    const body = await compress(raw, encoding);
    if (body.length >= raw.length) return null;
    const digest = createHash('sha256').update(raw).digest('base64url').slice(0, 22);
    return { body, etag: `"${digest}-${encoding}"` };
  }

  /** A held entry, moved to the end of the eviction order; undefined when not held. */
  const hit = (key: string): CompressedFile | null | undefined => {
    const held = entries.get(key);
    if (held === undefined) return undefined;
    const now = Date.now();
    if (now - held.usedAt >= REFRESH_MS) {
      held.usedAt = now;
      entries.delete(key);
      entries.set(key, held);
    }
    return held.value;
  };

  return {
    /**
     * The file in this coding when it is held already (null: compressing would not make it
     * smaller), undefined when it is not: the answer to nearly every request, without a promise.
     */
    peek(absPath: string, encoding: Coding): CompressedFile | null | undefined {
      return hit(`${encoding}:${absPath}`);
    },
    /** The file in this coding, or null when compressing would not make it smaller. */
    async get(absPath: string, encoding: Coding): Promise<CompressedFile | null> {
      const key = `${encoding}:${absPath}`;
      const held = hit(key);
      if (held !== undefined) return held;
      let job = pending.get(key);
      if (!job) {
        job = load(absPath, encoding).finally(() => pending.delete(key));
        pending.set(key, job);
        const value = await job;
        remember(key, value);
        return value;
      }
      return job;
    },
    /** Total bytes held (for tests). */
    get size(): number {
      return bytes;
    },
  };
}

/**
 * negotiateEncoding for an Accept-Encoding value, remembered: browsers send a handful of values,
 * and parsing one on every request cost more than the lookup. Bounded: a client sending a new
 * value each time only fills it.
 */
const negotiated = new Map<string, Encoding | null>();
export function acceptedEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  let encoding = negotiated.get(header);
  if (encoding === undefined) {
    encoding = negotiateEncoding(header);
    if (negotiated.size < 64) negotiated.set(header, encoding);
  }
  return encoding;
}
