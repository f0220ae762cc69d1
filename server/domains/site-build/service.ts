/**
 * The site builder: runs `astro build` into a new release directory and switches the live
 * release atomically. A failed build leaves the previous release live. One build at a time.
 * With SITE_PUBLISH=s3 a publish step (release-publish.ts) runs between the build and the switch:
 * the release goes live here only once the bucket's pointer names it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withProjectBuildLock } from './build-lock.ts';
import { shareWithLiveRelease } from './release-dedupe.ts';
import {
  currentReleaseId,
  inlineScriptHashes,
  listFiles,
  pruneReleases,
  readManifest,
  siteDirs,
  switchCurrent,
  writeManifest,
  type ReleaseManifest,
} from './release.ts';

export const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Inputs of the static site: a change to any of them makes the live release stale. */
const SOURCE_PATHS = [
  'site',
  'content',
  'shared',
  'server/contracts',
  'astro.config.mjs',
  'package-lock.json',
];

/**
 * Where `astro build` writes before the output moves to DATA_DIR: inside the project. Astro
 * writes its prerender bundle next to an outDir it judges to be inside the working directory,
 * and judges that by string prefix, so an outDir such as `<checkout>-data/…` counts as inside;
 * Node then resolves the bundle's bare imports (`@oslojs/encoding`) from there, where no
 * node_modules lies above, and the build fails. Under the project every import resolves, and
 * each build gets its own folder.
 */
const STAGING_DIR = path.join('node_modules', '.cache', 'site-builds');

/** A staging folder this old belongs to a build whose process was killed; a build takes seconds. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

async function removeAbandonedStaging(root: string): Promise<void> {
  const dir = path.join(root, STAGING_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/** Moves a directory; across file systems (DATA_DIR on its own volume) by copy, then delete. */
async function moveDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
  }
}

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * A content hash of every site input (paths and bytes, plus the build settings such as the public
 * origin and PUBLIC_* variables that Astro inlines), independent of mtimes.
 */
export async function computeSourceHash(
  root = PROJECT_ROOT,
  extraFiles: string[] = [],
  settings: Record<string, string> = {},
  digest: SourceDigest = (bytes) => bytes,
): Promise<string> {
  const hash = createHash('sha256');
  for (const [key, value] of Object.entries(settings).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${key}=${value}\0`);
  }
  for (const file of extraFiles) {
    // By name within DATA_DIR: instances with other data directories hash the same inputs alike.
    hash.update(path.basename(file));
    hash.update(digest(await readFile(file).catch(() => Buffer.alloc(0))));
  }
  for (const rel of SOURCE_PATHS) {
    const abs = path.join(root, rel);
    let files: string[];
    try {
      const entries = await readdir(abs, { recursive: true, withFileTypes: true });
      files = entries
        .filter((e) => e.isFile())
        .map((e) => path.relative(root, path.join(e.parentPath, e.name)));
    } catch {
      files = [rel]; // a file, or missing
    }
    for (const file of files.sort()) {
      hash.update(file);
      hash.update(await readFile(path.join(root, file)).catch(() => Buffer.alloc(0)));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** What of an extra source's bytes counts toward the source hash. */
export type SourceDigest = (bytes: Buffer) => Buffer | string;

export interface SiteBuilderOptions {
  dataDir: string;
  publicSiteUrl: string;
  log: Logger;
  projectRoot?: string;
  /** Environment for `astro build` (e.g. BLOG_SNAPSHOT_PATH). */
  buildEnv?: Record<string, string>;
  /** Files outside the project that are inputs of the site (the posts snapshot). */
  extraSources?: string[];
  /**
   * The part of an extra source that matters (default: all its bytes). The posts snapshot's
   * write time does not: instances that read the same posts must agree that a release is current.
   */
  sourceDigest?: SourceDigest;
  /** Writes the site into the directory instead of `astro build` (tests: a release in milliseconds). */
  render?: (outDir: string) => Promise<void>;
  /**
   * Runs between the build and the switch (SITE_PUBLISH=s3: uploads the release and writes the
   * bucket's pointer) and calls `goLive` to switch `current` here. A throw before `goLive` leaves
   * the previous release live and discards this one.
   */
  publish?: (manifest: ReleaseManifest, dir: string, goLive: () => Promise<void>) => Promise<void>;
  /** Called after the live release changed (the static server reloads its index). */
  onSwitch?: (manifest: ReleaseManifest) => void | Promise<void>;
  /** Told how long each build took and whether it succeeded (metrics: server/core/metrics.ts). */
  onBuildFinished?: (seconds: number, ok: boolean) => void;
}

export function createSiteBuilder(opts: SiteBuilderOptions) {
  const root = opts.projectRoot ?? PROJECT_ROOT;
  let running: Promise<ReleaseManifest> | null = null;

  /**
   * What `astro build` reads besides files: the origin (canonicals, sitemap) and the PUBLIC_*
   * variables it inlines (analytics id). A change to any of them makes the live release stale.
   */
  function buildSettings(): Record<string, string> {
    const settings: Record<string, string> = { PUBLIC_SITE_URL: opts.publicSiteUrl };
    for (const [key, value] of Object.entries({ ...process.env, ...opts.buildEnv })) {
      if (key.startsWith('PUBLIC_') && key !== 'PUBLIC_SITE_URL' && value !== undefined) {
        settings[key] = value;
      }
    }
    return settings;
  }

  const sourceHash = () =>
    computeSourceHash(root, opts.extraSources, buildSettings(), opts.sourceDigest);

  async function runAstroBuild(outDir: string): Promise<void> {
    const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [astroBin, 'build', '--silent'], {
        cwd: root,
        env: {
          ...process.env,
          ...opts.buildEnv,
          ASTRO_OUT_DIR: outDir,
          PUBLIC_SITE_URL: opts.publicSiteUrl,
          // Always the production bundles (minified React), also when the server runs in development.
          NODE_ENV: 'production',
          ASTRO_TELEMETRY_DISABLED: '1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      const keep = (chunk: Buffer) => {
        output = (output + chunk.toString()).slice(-8000);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new Error(`astro build exited with ${code}:\n${output}`)),
      );
    });
  }

  async function build(): Promise<ReleaseManifest> {
    const started = Date.now();
    const { releases } = siteDirs(opts.dataDir);
    await mkdir(releases, { recursive: true });
    const id = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${process.pid}`;
    const outDir = path.join(releases, id);
    const stagingDir = path.join(root, STAGING_DIR, id);
    const hash = await sourceHash();
    opts.log.info({ release: id }, 'site build started');
    let manifest: ReleaseManifest;
    try {
      await removeAbandonedStaging(root);
      const render = opts.render;
      if (render) await render(stagingDir);
      else await withProjectBuildLock(root, () => runAstroBuild(stagingDir));
      await moveDir(stagingDir, outDir);
      // Still the build: a release whose manifest cannot be written failed (counted, discarded).
      const files = await listFiles(outDir);
      // Unchanged files become hard links to the live release's: disk grows with changes only.
      await shareWithLiveRelease(opts.dataDir, id, outDir, files, opts.log);
      manifest = {
        id,
        builtAt: new Date().toISOString(),
        sourceHash: hash,
        durationMs: Date.now() - started,
        files,
        inlineScriptHashes: await inlineScriptHashes(outDir, files),
      };
      await writeManifest(outDir, manifest);
    } catch (error) {
      opts.onBuildFinished?.((Date.now() - started) / 1000, false);
      await rm(outDir, { recursive: true, force: true });
      opts.log.error(
        { err: error, release: id },
        'site build failed; the previous release stays live',
      );
      throw error;
    } finally {
      await rm(stagingDir, { recursive: true, force: true });
    }
    const goLive = async () => {
      await switchCurrent(opts.dataDir, id);
      await pruneReleases(opts.dataDir);
      opts.log.info({ release: id, durationMs: manifest.durationMs }, 'site release live');
      await opts.onSwitch?.(manifest);
    };
    try {
      if (opts.publish) await opts.publish(manifest, outDir, goLive);
      else await goLive();
    } catch (error) {
      opts.onBuildFinished?.((Date.now() - started) / 1000, false);
      // Kept when it went live before the failure (a hook or a cleanup after the switch).
      if ((await currentReleaseId(opts.dataDir)) !== id) {
        await rm(outDir, { recursive: true, force: true });
      }
      opts.log.error(
        { err: error, release: id },
        'site publish failed; the previous release stays live',
      );
      throw error;
    }
    opts.onBuildFinished?.((Date.now() - started) / 1000, true);
    return manifest;
  }

  return {
    /** Builds a new release now; concurrent callers share the running build. */
    build(): Promise<ReleaseManifest> {
      running ??= build().finally(() => {
        running = null;
      });
      return running;
    },

    /** The hash of the site's inputs as they are now (a release built from them carries it). */
    sourceHash,

    /** The live release's manifest when it was built from the current inputs, else null. */
    async currentIfFresh(): Promise<ReleaseManifest | null> {
      const live = await currentReleaseId(opts.dataDir);
      if (!live) return null;
      const manifest = await readManifest(path.join(siteDirs(opts.dataDir).releases, live));
      return manifest && manifest.sourceHash === (await sourceHash()) ? manifest : null;
    },

    /** The live release's manifest, building first when there is none or it is stale. */
    async ensureCurrent(): Promise<ReleaseManifest> {
      return (await this.currentIfFresh()) ?? this.build();
    },
  };
}

export type SiteBuilder = ReturnType<typeof createSiteBuilder>;
