/**
 * Public addresses of stored objects (`/media/{file}`, `/uploads/blog/{file}`, `/samples/…`).
 * The address in the database and in pages never changes; what answers it depends on the store:
 * - files (local store): this process streams the object, with single-range requests (video
 *   seeking), ETag revalidation and HEAD;
 * - a bucket: a redirect to MEDIA_PUBLIC_URL (a CDN) or to a presigned GET URL, so the bytes,
 *   and every range request the player makes, go straight to the bucket, never through the API.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { RangeNotSatisfiableError, type MediaStore } from './types.ts';

/** The app's 404 answer, as the reply (callNotFound itself returns nothing). */
function notFound(reply: FastifyReply): FastifyReply {
  reply.callNotFound();
  return reply;
}

/** A file name under a public prefix: no slashes, no leading dot. */
const FILE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;

type ByteRange = { start: number; end?: number };

/**
 * The one range of a `Range: bytes=…` header, or null to answer the whole object (no header,
 * another unit, several ranges, or a malformed one: RFC 9110 lets a server ignore those).
 */
function parseRange(header: string | undefined, size: () => Promise<number | null>) {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return Promise.resolve(null);
  // A number past 2^53 cannot be a position in any object we hold: unsatisfiable, so the store
  // answers 416 with the object's size (issue 34, finding 3), as for a start past the end.
  if (![match[1], match[2]].every((n) => n === '' || Number.isSafeInteger(Number(n)))) {
    return Promise.resolve<ByteRange>({ start: Number.MAX_SAFE_INTEGER });
  }
  if (match[1] === '') {
    // A suffix: the last n bytes.
    const suffix = Number(match[2]);
    return size().then((total): ByteRange | null =>
      total === null ? null : { start: Math.max(0, total - suffix) },
    );
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? undefined : Number(match[2]);
  if (end !== undefined && end < start) return Promise.resolve(null);
  return Promise.resolve<ByteRange>(end === undefined ? { start } : { start, end });
}

/**
 * How long a redirect may be cached: to a presigned URL, privately and well inside the URL's
 * lifetime; to a CDN address, an hour, privately when the object itself is private (a
 * customer's video, which they may delete).
 */
function redirectCacheControl(store: MediaStore, cacheControl: string): string {
  if (store.urlTtlSeconds === null) {
    return cacheControl.startsWith('private') ? 'private, max-age=3600' : 'public, max-age=3600';
  }
  return `private, max-age=${Math.max(0, Math.min(300, Math.floor(store.urlTtlSeconds / 2)))}`;
}

/**
 * Answers one stored object: a redirect to the bucket, or the bytes (whole or one range).
 * `cacheControl` is what a streamed answer carries (`private, …` also keeps redirects private).
 */
export async function sendStoredObject(
  request: FastifyRequest,
  reply: FastifyReply,
  store: MediaStore,
  key: string,
  cacheControl: string,
): Promise<FastifyReply> {
  const direct = await store.publicUrl(key);
  if (direct) {
    return reply
      .header('cache-control', redirectCacheControl(store, cacheControl))
      .redirect(direct, 302);
  }
  const ifNoneMatch = request.headers['if-none-match'];
  if (ifNoneMatch) {
    const head = await store.head(key);
    if (!head) return notFound(reply);
    if (head.etag && ifNoneMatch.split(/\s*,\s*/).includes(head.etag)) {
      return reply.status(304).headers({ etag: head.etag, 'cache-control': cacheControl }).send();
    }
  }
  let range = await parseRange(
    request.headers.range,
    async () => (await store.head(key))?.size ?? null,
  );
  const ifRange = request.headers['if-range'];
  if (range && ifRange && (await store.head(key))?.etag !== ifRange) {
    range = null; // the object changed since the client's copy: send all of it
  }
  let object;
  try {
    object = await store.get(key, range ?? undefined);
  } catch (error) {
    if (!(error instanceof RangeNotSatisfiableError)) throw error;
    return reply
      .status(416)
      .headers({ 'content-range': `bytes */${error.size}`, 'accept-ranges': 'bytes' })
      .send();
  }
  if (!object) return notFound(reply);
  reply.headers({
    'content-type': object.contentType,
    'accept-ranges': 'bytes',
    'cache-control': cacheControl,
    ...(object.etag ? { etag: object.etag } : {}),
    ...(object.lastModified ? { 'last-modified': object.lastModified.toUTCString() } : {}),
  });
  if (object.range) {
    const { start, end } = object.range;
    reply
      .status(206)
      .header('content-range', `bytes ${start}-${end}/${object.size}`)
      .header('content-length', end - start + 1);
  } else {
    reply.header('content-length', object.size);
  }
  return reply.send(object.body);
}

/**
 * A public GET (and HEAD) route `${urlPrefix}:file` answering the key `${keyPrefix}${file}`.
 * Public on purpose: the random name is the key, so a shared link works without a sign-in.
 */
export async function storedObjectRoutes(
  app: FastifyInstance,
  opts: { store: MediaStore; urlPrefix: string; keyPrefix: string; cacheControl: string },
): Promise<void> {
  app.get(
    `${opts.urlPrefix}:file`,
    {
      config: { access: 'public' },
      schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) },
    },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      if (!FILE_NAME.test(file)) return reply.callNotFound();
      return sendStoredObject(
        request,
        reply,
        opts.store,
        `${opts.keyPrefix}${file}`,
        opts.cacheControl,
      );
    },
  );
}
