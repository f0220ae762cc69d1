/**
 * Serves the live static release (DATA_DIR/site/current) from the API's port. Pretty URLs map
 * to Astro's `build.format: 'file'` output (/login → login.html); unknown paths get the
 * release's 404.html, which sends the browser to / (spec: Routes). Text files go out Brotli- or
 * gzip-compressed when the browser accepts it, and from memory either way; hashed /_astro/
 * assets are cached for a year.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FrontDoor } from '../../core/server.ts';
import { currentReleaseId, readManifest, siteDirs } from './release.ts';
import {
  compressibleType,
  createCompressionCache,
  acceptedEncoding,
  type Coding,
  type CompressedFile,
} from '../../core/static-compression.ts';

export interface LiveRelease {
  /** Files of the live release; empty before the first build. */
  files: Set<string>;
  inlineScriptHashes: string[];
  id: string | null;
  /**
   * A first start's release without the blog's pages, live while they build: an address it has
   * no file for may be one of them, so it answers "being built" rather than the 404 page.
   */
  partial?: boolean;
}

/** The index before any release is loaded. */
export const emptyLiveRelease = (): LiveRelease => ({
  files: new Set(),
  inlineScriptHashes: [],
  id: null,
});

/** Loads the live release's manifest into memory (called at start and after each switch). */
export async function loadLiveRelease(dataDir: string, into: LiveRelease): Promise<void> {
  const manifest = await readManifest(siteDirs(dataDir).current);
  into.files = new Set(manifest?.files ?? []);
  into.inlineScriptHashes = manifest?.inlineScriptHashes ?? [];
  into.id = manifest?.id ?? null;
  into.partial = manifest?.partial === true;
}

/**
 * How long a release file may be cached, here and in the bucket (SITE_PUBLISH=s3): Astro puts a
 * content hash in every /_astro/ name, so those bytes never change; pages are revalidated.
 */
export function releaseCacheControl(file: string): string {
  return file.startsWith('_astro/')
    ? 'public, max-age=31536000, immutable'
    : 'public, max-age=0, must-revalidate';
}

/** The release file a URL path names, or null. */
export function resolveSitePath(urlPath: string, files: Set<string>): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.split('/').includes('..')) return null;
  const rel = decoded.replace(/^\/+/, '');
  if (rel === '') return files.has('index.html') ? 'index.html' : null;
  for (const candidate of [rel, `${rel}.html`, `${rel}/index.html`]) {
    if (files.has(candidate)) return candidate;
  }
  return null;
}

/** If-None-Match names this validator (or `*`); weak and strong forms compare equal. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

/**
 * Whether a plain answer can come from memory: anything but ranges and the rarer preconditions,
 * which @fastify/send answers from the file. If-Modified-Since alone goes there too; next to
 * If-None-Match it is ignored (RFC 9110 13.1.3), as send ignores it.
 */
function plainFromMemory(request: { headers: IncomingHttpHeaders }): boolean {
  const h = request.headers;
  return (
    h.range === undefined &&
    h['if-range'] === undefined &&
    h['if-match'] === undefined &&
    h['if-unmodified-since'] === undefined &&
    (h['if-modified-since'] === undefined || h['if-none-match'] !== undefined)
  );
}

/** A file of the live release as its answers need it (see staticSitePlugin). */
interface ReleaseFile {
  file: string;
  /** Content type of a text file held in memory; null for the rest (@fastify/send). */
  type: string | null;
  cacheControl: string;
  /** In the release's own folder; null before a release is loaded. */
  absPath: string | null;
}

/** A held copy's headers: for a 304 (validators) and for the answer with its body. */
interface HeldHeaders {
  validators: Record<string, string>;
  full: Record<string, string>;
}

const BUILDING_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="2"><meta name="robots" content="noindex"><title>Starting up</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;margin:3rem auto;max-width:32rem;padding:0 1rem">
<h1 style="font-size:1.3rem">The site is being built</h1>
<p role="status">This takes a few seconds after the server starts. The page reloads by itself.</p>
</body></html>`;

export type SiteFallback = (
  urlPath: string,
) => Promise<{ redirect: string } | { file: string; status: number } | null>;

export const staticSitePlugin = fp(
  async (
    app: FastifyInstance,
    opts: { dataDir: string; release: LiveRelease; fallback?: SiteFallback },
  ) => {
    const { current: root, releases, root: siteRoot } = siteDirs(opts.dataDir);
    // Every sendFile names its root (the live release, or the sample cache): this one only
    // has to exist, and `current` does not before the first build.
    await mkdir(siteRoot, { recursive: true });
    await app.register(fastifyStatic, {
      root: siteRoot,
      serve: false,
      etag: true,
      lastModified: true,
    });
    const memory = createCompressionCache();

    // Per release, what an address's answer needs is worked out on its first request and kept:
    // the file, its content type and cache policy, its path in the release's folder (read from
    // there: the id keys the cache, and `current` may switch), and per held copy the headers.
    let indexed: { files: Set<string>; id: string | null } = { files: new Set(), id: null };
    const byFile = new Map<string, ReleaseFile>();
    const byAddress = new Map<string, ReleaseFile>();
    const headersOf = new WeakMap<CompressedFile, HeldHeaders>();
    const releaseFile = (file: string): ReleaseFile => {
      const { files, id } = opts.release;
      if (files !== indexed.files || id !== indexed.id) {
        indexed = { files, id };
        byFile.clear();
        byAddress.clear();
      }
      let known = byFile.get(file);
      if (!known) {
        const type = compressibleType(file);
        const absPath = id ? path.join(releases, id, file) : null;
        known = { file, type, cacheControl: releaseCacheControl(file), absPath };
        byFile.set(file, known);
      }
      return known;
    };
    const fileAt = (urlPath: string): ReleaseFile | null => {
      const known = byAddress.get(urlPath);
      if (known && opts.release.files === indexed.files && opts.release.id === indexed.id) {
        return known;
      }
      const file = resolveSitePath(urlPath, opts.release.files);
      if (!file) return null;
      const found = releaseFile(file);
      // Bounded: only addresses that name a file, a few spellings each ('/a', '/a.html', …).
      if (byAddress.size < 4 * opts.release.files.size + 64) byAddress.set(urlPath, found);
      return found;
    };
    const heldHeaders = (held: CompressedFile, file: ReleaseFile, coding: Coding) => {
      let headers = headersOf.get(held);
      if (!headers) {
        // Shared caches must keep the compressed and the plain answer apart (vary).
        const validators: Record<string, string> = {
          'cache-control': file.cacheControl,
          vary: 'Accept-Encoding',
          etag: held.etag,
        };
        if (coding === 'identity') {
          // The headers @fastify/send gives the same file (ranges go to it, see plainFromMemory).
          validators['last-modified'] = held.lastModified!;
          validators['accept-ranges'] = 'bytes';
        }
        const full: Record<string, string> = { ...validators, 'content-type': file.type! };
        if (coding !== 'identity') full['content-encoding'] = coding;
        headers = { validators, full };
        headersOf.set(held, headers);
      }
      return headers;
    };

    const codingFor = (request: { headers: IncomingHttpHeaders }, file: ReleaseFile) =>
      file.type
        ? (acceptedEncoding(request.headers['accept-encoding']) ??
          (plainFromMemory(request) ? ('identity' as const) : null))
        : null;
    const answerHeld = (
      request: FastifyRequest,
      reply: FastifyReply,
      file: ReleaseFile,
      coding: Coding,
      held: CompressedFile,
      status: number,
    ) => {
      const headers = heldHeaders(held, file, coding);
      if (status === 200 && matchesEtag(request.headers['if-none-match'], held.etag)) {
        return reply.headers(headers.validators).status(304).send();
      }
      return reply.headers(headers.full).status(status).send(held.body);
    };
    /** The answer from memory when the file is held in the coding the request takes, or null. */
    const fromMemory = (
      request: FastifyRequest,
      reply: FastifyReply,
      file: ReleaseFile,
      status: number,
    ) => {
      const coding = codingFor(request, file);
      const held = coding && file.absPath ? memory.peek(file.absPath, coding) : null;
      return held ? answerHeld(request, reply, file, coding!, held, status) : null;
    };
    const send = async (
      request: FastifyRequest,
      reply: FastifyReply,
      file: ReleaseFile,
      status = 200,
    ) => {
      const coding = codingFor(request, file);
      if (coding && file.absPath) {
        const held = await memory.get(file.absPath, coding).catch(() => null);
        if (held) return answerHeld(request, reply, file, coding, held, status);
      }
      reply.header('cache-control', file.cacheControl);
      if (file.type) reply.header('vary', 'Accept-Encoding');
      return reply.status(status).sendFile(file.file, root, { cacheControl: false });
    };

    // Another instance sharing DATA_DIR may have switched `current` (it built after its own
    // publish): look at the link at most once a second and load the release it names.
    let checkedAt = 0;
    const fresh = () => Date.now() - checkedAt < 1000;
    const followCurrent = async () => {
      checkedAt = Date.now();
      const live = await currentReleaseId(opts.dataDir);
      if (live && live !== opts.release.id) await loadLiveRelease(opts.dataDir, opts.release);
    };

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const query = request.url.indexOf('?');
      const urlPath = query === -1 ? request.url : request.url.slice(0, query);
      if (urlPath.startsWith('/api/')) return reply.callNotFound();
      if (Date.now() - checkedAt >= 1000) await followCurrent();
      const file = fileAt(urlPath);
      if (file) return send(request, reply, file);
      // '/pricing/' → '/pricing': one canonical form for every page. Leading slashes are folded
      // to one: '//pricing' in a Location header would send the browser to the host "pricing".
      if (urlPath.length > 1 && urlPath.endsWith('/')) {
        const trimmed = urlPath.replace(/\/+$/, '').replace(/^[/\\]+/, '/');
        if (resolveSitePath(trimmed, opts.release.files)) {
          const query = request.url.slice(urlPath.length);
          return reply.redirect(trimmed + query, 301);
        }
      }
      const fallback = await opts.fallback?.(urlPath);
      if (fallback && 'redirect' in fallback) return reply.redirect(fallback.redirect, 301);
      if (fallback && opts.release.files.has(fallback.file))
        return send(request, reply, releaseFile(fallback.file), fallback.status);
      if (opts.release.files.has('404.html') && !opts.release.partial) {
        return send(request, reply, releaseFile('404.html'), 404);
      }
      // Before the first build is live, or the blog's pages of a first start (seconds): a page
      // that reloads itself.
      return reply
        .status(503)
        .header('retry-after', '2')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(BUILDING_PAGE);
    };

    // Nearly every request: an address this release already answered, its file held in memory.
    // Answered there and then, without a promise (the rest goes to `handler`), the request's
    // stream also ends the cheap way in Node: about a tenth of a page's cost (issue 33).
    const serve = (request: FastifyRequest, reply: FastifyReply) => {
      if (fresh()) {
        const query = request.url.indexOf('?');
        const urlPath = query === -1 ? request.url : request.url.slice(0, query);
        const file = urlPath.startsWith('/api/') ? null : fileAt(urlPath);
        const answered = file && fromMemory(request, reply, file, 200);
        if (answered) return answered;
      }
      return handler(request, reply);
    };

    app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, serve);

    // With the app's server (not a bare Fastify in a test), the same answers come before Fastify
    // itself: its routing, request objects and hooks cost more than the rest of a page's answer.
    if (
      app.hasDecorator('addFrontDoor') &&
      app.hasDecorator('pageSecurityHeaders') &&
      app.hasDecorator('metrics')
    ) {
      app.addFrontDoor(frontDoor(app, { fileAt, codingFor, heldHeaders, memory, fresh }));
    }
  },
  { name: 'static-site' },
);

/**
 * The static site's front door (core/server.ts): a GET of a page or asset this release already
 * answered, held in memory in the coding the request takes, answered before Fastify with what
 * Fastify's route gives it: the page security headers (core/security.ts), the held copy's headers
 * and bytes or a 304, one access-log line, its timing under the route's pattern. Anything else
 * goes on to Fastify: other methods, identity headers (core/auth.ts checks them), a NUL in the
 * address (core/request-input.ts refuses it), a file not held yet, a release not looked at this
 * second, and every request once the server is closing.
 */
function frontDoor(
  app: FastifyInstance,
  site: {
    fileAt: (urlPath: string) => ReleaseFile | null;
    codingFor: (request: { headers: IncomingHttpHeaders }, file: ReleaseFile) => Coding | null;
    heldHeaders: (held: CompressedFile, file: ReleaseFile, coding: Coding) => HeldHeaders;
    memory: { peek(absPath: string, coding: Coding): CompressedFile | null | undefined };
    fresh: () => boolean;
  },
): FrontDoor {
  let open = true;
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });
  // Per held copy: its headers after the page security headers, as Fastify's reply sets them.
  const merged = new WeakMap<HeldHeaders, { security: object } & HeldHeaders>();
  let answered = 0;
  return (req, res) => {
    const url = req.url ?? '/';
    const h = req.headers;
    if (!open || req.method !== 'GET' || !site.fresh()) return false;
    if (h['x-user-id'] !== undefined || h['x-user-email'] !== undefined) return false;
    if (url.includes('%00') || url.includes('\0')) return false;
    const started = performance.now();
    const query = url.indexOf('?');
    const urlPath = query === -1 ? url : url.slice(0, query);
    const file = urlPath.startsWith('/api/') ? null : site.fileAt(urlPath);
    const coding = file && site.codingFor(req, file);
    const held = coding && file.absPath ? site.memory.peek(file.absPath, coding) : null;
    if (!held) return false;
    const own = site.heldHeaders(held, file!, coding!);
    const security = app.pageSecurityHeaders();
    let headers = merged.get(own);
    if (headers?.security !== security) {
      headers = {
        security,
        validators: { ...security, ...own.validators },
        full: { ...security, ...own.full, 'content-length': String(held.body.length) },
      };
      merged.set(own, headers);
    }
    const notModified = matchesEtag(h['if-none-match'], held.etag);
    const status = notModified ? 304 : 200;
    res.writeHead(status, notModified ? headers.validators : headers.full);
    res.end(notModified ? undefined : held.body);
    const ms = performance.now() - started;
    app.logAnswered('GET', url, `req-s${(answered++).toString(36)}`, status, ms);
    app.metrics.httpDuration.observe(
      { method: 'GET', route: '/*', status: String(status) },
      ms / 1000,
    );
    return true;
  };
}
