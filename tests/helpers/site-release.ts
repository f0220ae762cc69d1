/** A site release written to a temporary data directory and served by the static-site plugin. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  loadLiveRelease,
  staticSitePlugin,
  type LiveRelease,
} from '../../server/domains/site-build/static-site.ts';
import {
  listFiles,
  siteDirs,
  switchCurrent,
  writeManifest,
  type ReleaseManifest,
} from '../../server/domains/site-build/release.ts';

/**
 * Writes `files` (path in the release → content) as the live release `r1` of a new data
 * directory (its manifest with `manifest`'s fields) and answers them from a bare Fastify app,
 * as the server serves the site.
 */
export async function serveRelease(
  prefix: string,
  files: Record<string, string | Buffer>,
  manifest: Partial<ReleaseManifest> = {},
): Promise<FastifyInstance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), prefix));
  await writeLiveRelease(dataDir, files, manifest);
  const release: LiveRelease = { files: new Set(), inlineScriptHashes: [], id: null };
  await loadLiveRelease(dataDir, release);
  const app = Fastify();
  await app.register(staticSitePlugin, { dataDir, release });
  await app.ready();
  return app;
}

/** Writes `files` (path in the release → content) as the live release `r1` of `dataDir`. */
export async function writeLiveRelease(
  dataDir: string,
  files: Record<string, string | Buffer>,
  manifest: Partial<ReleaseManifest> = {},
): Promise<void> {
  const dir = path.join(siteDirs(dataDir).releases, 'r1');
  for (const [file, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), content);
  }
  await writeManifest(dir, {
    id: 'r1',
    builtAt: new Date().toISOString(),
    sourceHash: 'test',
    durationMs: 0,
    files: await listFiles(dir),
    inlineScriptHashes: [],
    ...manifest,
  });
  await switchCurrent(dataDir, 'r1');
}
