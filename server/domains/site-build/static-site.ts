/**
 * Serves the live static release (DATA_DIR/site/current) from the API's port. Pretty URLs map
 * to Astro's `build.format: 'file'` output (/login → login.html); unknown paths get the
 * release's 404.html, which sends the browser to / (spec: Routes). Text files go out Brotli- or
 * gzip-compressed when the browser accepts it, and from memory either way; hashed /_astro/
 * assets are cached for a year.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { currentReleaseId, readManifest, siteDirs } from './release.ts';
import {
  compressibleType,
  createCompressionCache,
  negotiateEncoding,
} from '../../core/static-compression.ts';

export interface LiveRelease {
  /** Files of the live release; empty before the first build. */
  files: Set<string>;
  inlineScriptHashes: string[];
  id: string | null;
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
function plainFromMemory(request: FastifyRequest): boolean {
  const h = request.headers;
  return (
    h.range === undefined &&
    h['if-range'] === undefined &&
    h['if-match'] === undefined &&
    h['if-unmodified-since'] === undefined &&
    (h['if-modified-since'] === undefined || h['if-none-match'] !== undefined)
  );
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

    const send = async (
      request: FastifyRequest,
      reply: FastifyReply,
      file: string,
      status = 200,
    ) => {
      reply.header('cache-control', releaseCacheControl(file));
      const type = compressibleType(file);
      // Shared caches must keep the compressed and the plain answer apart.
      if (type) reply.header('vary', 'Accept-Encoding');
      const encoding = type
        ? (negotiateEncoding(request.headers['accept-encoding']) ??
          (plainFromMemory(request) ? 'identity' : null))
        : null;
      const releaseId = opts.release.id;
      if (type && encoding && releaseId) {
        // Read from the release's own folder: its id keys the cache, and `current` may switch.
        const held = await memory
          .get(path.join(releases, releaseId, file), encoding)
          .catch(() => null);
        if (held) {
          reply.header('etag', held.etag);
          if (encoding === 'identity') {
            // The headers @fastify/send gives the same file (ranges go to it, see plainFromMemory).
            reply.header('last-modified', held.lastModified).header('accept-ranges', 'bytes');
          }
          if (status === 200 && matchesEtag(request.headers['if-none-match'], held.etag)) {
            return reply.status(304).send();
          }
          reply.status(status).header('content-type', type);
          if (encoding !== 'identity') reply.header('content-encoding', encoding);
          return reply.send(held.body);
        }
      }
      return reply.status(status).sendFile(file, root, { cacheControl: false });
    };

    // Another instance sharing DATA_DIR may have switched `current` (it built after its own
    // publish): look at the link at most once a second and load the release it names.
    let checkedAt = 0;
    const followCurrent = async () => {
      if (Date.now() - checkedAt < 1000) return;
      checkedAt = Date.now();
      const live = await currentReleaseId(opts.dataDir);
      if (live && live !== opts.release.id) await loadLiveRelease(opts.dataDir, opts.release);
    };

    const handler = async (request: FastifyRequest, reply: FastifyReply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (urlPath.startsWith('/api/')) return reply.callNotFound();
      await followCurrent();
      const file = resolveSitePath(urlPath, opts.release.files);
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
        return send(request, reply, fallback.file, fallback.status);
      if (opts.release.files.has('404.html')) return send(request, reply, '404.html', 404);
      // Before the first build is live (a fresh start takes seconds): a page that reloads itself.
      return reply
        .status(503)
        .header('retry-after', '2')
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(BUILDING_PAGE);
    };

    app.get('/*', { config: { access: 'public' }, schema: { hide: true } }, handler);
  },
  { name: 'static-site' },
);
