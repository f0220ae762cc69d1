/**
 * Serves the live static release (DATA_DIR/site/current) from the API's port. Pretty URLs map
 * to Astro's `build.format: 'file'` output (/login → login.html); unknown paths get the
 * release's 404.html, which sends the browser to / (spec: Routes).
 */
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { readManifest, siteDirs } from '../domains/site-build/release.ts';

export interface LiveRelease {
  /** Files of the live release; empty before the first build. */
  files: Set<string>;
  inlineScriptHashes: string[];
  id: string | null;
}

/** Loads the live release's manifest into memory (called at start and after each switch). */
export async function loadLiveRelease(dataDir: string, into: LiveRelease): Promise<void> {
  const manifest = await readManifest(siteDirs(dataDir).current);
  into.files = new Set(manifest?.files ?? []);
  into.inlineScriptHashes = manifest?.inlineScriptHashes ?? [];
  into.id = manifest?.id ?? null;
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

export type SiteFallback = (
  urlPath: string,
) => Promise<{ redirect: string } | { file: string; status: number } | null>;

export const staticSitePlugin = fp(
  async (
    app: FastifyInstance,
    opts: { dataDir: string; release: LiveRelease; fallback?: SiteFallback },
  ) => {
    const root = siteDirs(opts.dataDir).current;
    await app.register(fastifyStatic, { root, serve: false, etag: true, lastModified: true });

    const send = (reply: FastifyReply, file: string, status = 200) => {
      const immutable = file.startsWith('_astro/');
      reply.header(
        'cache-control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
      );
      return reply.status(status).sendFile(file, path.join(root), { cacheControl: false });
    };

    const handler = async (request: { url: string }, reply: FastifyReply) => {
      const urlPath = request.url.split('?')[0] ?? '/';
      if (urlPath.startsWith('/api/')) return reply.callNotFound();
      const file = resolveSitePath(urlPath, opts.release.files);
      if (file) return send(reply, file);
      // '/pricing/' → '/pricing': one canonical form for every page.
      if (urlPath.length > 1 && urlPath.endsWith('/')) {
        const trimmed = urlPath.replace(/\/+$/, '');
        if (resolveSitePath(trimmed, opts.release.files)) {
          const query = request.url.slice(urlPath.length);
          return reply.redirect(trimmed + query, 301);
        }
      }
      const fallback = await opts.fallback?.(urlPath);
      if (fallback && 'redirect' in fallback) return reply.redirect(fallback.redirect, 301);
      if (fallback && opts.release.files.has(fallback.file))
        return send(reply, fallback.file, fallback.status);
      if (opts.release.files.has('404.html')) return send(reply, '404.html', 404);
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The site is being built. Reload in a few seconds.');
    };

    app.get('/*', { schema: { hide: true } }, handler);
  },
  { name: 'static-site' },
);
