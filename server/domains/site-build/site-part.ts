/**
 * The site part of a release: its `astro build` (into a staging folder inside the project, then
 * moved), the settings that make a live release stale, and `prepareSite`, which main.ts starts
 * before the app is imported (service.ts takes the staged build when its key still matches).
 */
import { spawn } from 'node:child_process';
import { cp, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { withProjectBuildLock } from './build-lock.ts';
import { currentReleaseId, readManifest, siteDirs, type ReleaseManifest } from './release.ts';
import { computeSourceHash, PROJECT_ROOT } from './source-hash.ts';

/**
 * Where `astro build` writes before the output moves to DATA_DIR: inside the project. Astro
 * writes its prerender bundle next to an outDir it judges to be inside the working directory,
 * and judges that by string prefix, so an outDir such as `<checkout>-data/…` counts as inside;
 * Node then resolves the bundle's bare imports (`@oslojs/encoding`) from there, where no
 * node_modules lies above, and the build fails. Under the project every import resolves, and
 * each build gets its own folder.
 */
export const STAGING_DIR = path.join('node_modules', '.cache', 'site-builds');

/** A staging folder this old belongs to a build whose process was killed; a build takes seconds. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

export async function removeAbandonedStaging(root: string): Promise<void> {
  const dir = path.join(root, STAGING_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info && Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) {
      await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/** Moves a directory; across file systems (DATA_DIR on its own volume) by copy, then delete. */
export async function moveDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, errorOnExist: true, force: false });
  }
}

/**
 * What `astro build` reads besides files: the origin (canonicals, sitemap) and the PUBLIC_*
 * variables it inlines (analytics id). A change to any of them makes the live release stale.
 */
export function buildSettings(publicSiteUrl: string, buildEnv: Record<string, string> = {}) {
  const settings: Record<string, string> = { PUBLIC_SITE_URL: publicSiteUrl };
  for (const [key, value] of Object.entries({ ...process.env, ...buildEnv })) {
    if (key.startsWith('PUBLIC_') && key !== 'PUBLIC_SITE_URL' && value !== undefined) {
      settings[key] = value;
    }
  }
  return settings;
}

/** The site part's `astro build` when the blog's pages are built apart: it shows no post. */
export const SITE_APART_ENV = { BLOG_PAGES: 'separate' };

/** One `astro build` of the project at `root` into `outDir`. */
export async function runAstroBuild(
  root: string,
  outDir: string,
  run: {
    publicSiteUrl: string;
    env: Record<string, string>;
    config?: string;
    signal?: AbortSignal;
  },
): Promise<void> {
  const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const args = [astroBin, 'build', '--silent', ...(run.config ? ['--config', run.config] : [])];
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: {
        ...process.env,
        ...run.env,
        ASTRO_OUT_DIR: outDir,
        PUBLIC_SITE_URL: run.publicSiteUrl,
        // Always the production bundles (minified React), also when the server runs in development.
        NODE_ENV: 'production',
        ASTRO_TELEMETRY_DISABLED: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(run.signal ? { signal: run.signal } : {}),
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

/** The site part of a release, built ahead (`prepareSite`) in a staging folder. */
interface StagedSite {
  dir: string;
  /** The sources and settings it was built from (the builder's `siteKey`). */
  key: string;
}

/**
 * The site part's `astro build`, started before the app (main.ts): it reads no data, so on a
 * first start it runs while the app loads and the database migrates. The builder takes it
 * (`ensureCurrent({ prepared })`) when it was built from the sources and settings it builds
 * from, else builds again.
 */
export interface PreparedSite {
  /** The staged build, or null when the live release's site part is already current. */
  ready: Promise<StagedSite | null>;
  /** Stops the build (the server did not start) and removes what it wrote. */
  cancel(): void;
}

/** The live release's manifest, or null before the first build. */
export async function liveManifest(dataDir: string): Promise<ReleaseManifest | null> {
  const id = await currentReleaseId(dataDir);
  return id ? readManifest(path.join(siteDirs(dataDir).releases, id)) : null;
}

/**
 * Starts the site part's build now, unless the live release's site part is current (then
 * `ready` is null at once). For a builder with the blog's posts (createPostsSiteBuilder) on the
 * same data directory, origin and project.
 */
export function prepareSite(opts: {
  dataDir: string;
  publicSiteUrl: string;
  projectRoot?: string;
}): PreparedSite {
  const root = opts.projectRoot ?? PROJECT_ROOT;
  const cancelled = new AbortController();
  const dir = path.join(root, STAGING_DIR, `site-${process.pid}-${Date.now()}`);
  const ready = (async (): Promise<StagedSite | null> => {
    const key = await computeSourceHash(root, [], buildSettings(opts.publicSiteUrl));
    if ((await liveManifest(opts.dataDir))?.siteKey === key) return null;
    try {
      await removeAbandonedStaging(root);
      await withProjectBuildLock(root, () =>
        runAstroBuild(root, dir, {
          publicSiteUrl: opts.publicSiteUrl,
          env: SITE_APART_ENV,
          signal: cancelled.signal,
        }),
      );
      return { dir, key };
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  })();
  // A failure is the builder's to report when it takes the build; none goes unhandled here.
  ready.catch(() => {});
  return {
    ready,
    cancel() {
      cancelled.abort();
      void ready.then(
        (staged) => staged && rm(staged.dir, { recursive: true, force: true }),
        () => {}, // stopped, or failed: it removed its folder
      );
    },
  };
}
