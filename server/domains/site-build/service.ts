/**
 * The site builder: runs `astro build` into a new release directory and switches the live
 * release atomically. A failed build leaves the previous release live. One build at a time.
 * With SITE_PUBLISH=s3 a publish step (release-publish.ts) runs between the build and the switch:
 * the release goes live here only once the bucket's pointer names it.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from '../../core/concurrency.ts';
import {
  buildArticlePages,
  linkOrCopy,
  readArticleIndex,
  type ArticleIndex,
  type ArticleRenderer,
  type ArticleSource,
} from './article-pages.ts';
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
import { computeSourceHash, PROJECT_ROOT, type SourceDigest } from './source-hash.ts';

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

export { PROJECT_ROOT, SOURCE_PATHS } from './source-hash.ts';

/** How one `astro build` runs: another config file, more environment. */
interface AstroRun {
  config?: string;
  env?: Record<string, string>;
}

/** A release's manifest but for its id, time and duration. */
type ReleaseContent = Pick<ReleaseManifest, 'sourceHash' | 'files' | 'inlineScriptHashes'>;

/** The live release as a build reads it. */
interface LiveRelease {
  id: string;
  dir: string;
  manifest: ReleaseManifest;
  index: ArticleIndex | null;
}

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
   * The blog's posts, when their pages are built apart (article-pages.ts): the main build then
   * renders none (BLOG_ARTICLES=separate) and each build renders only the changed ones.
   */
  articles?: ArticleSource;
  /** Renders a batch of article pages instead of `astro build` (tests). */
  renderArticles?: ArticleRenderer;
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

  async function runAstroBuild(outDir: string, extra: AstroRun = {}): Promise<void> {
    const astroBin = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
    const args = [
      astroBin,
      'build',
      '--silent',
      ...(extra.config ? ['--config', extra.config] : []),
    ];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, {
        cwd: root,
        env: {
          ...process.env,
          ...opts.buildEnv,
          ...extra.env,
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

  /** The live release's folder, manifest and article index, or null before the first. */
  async function liveRelease(): Promise<LiveRelease | null> {
    const id = await currentReleaseId(opts.dataDir);
    if (!id) return null;
    const dir = path.join(siteDirs(opts.dataDir).releases, id);
    const manifest = await readManifest(dir);
    return manifest ? { id, dir, manifest, index: await readArticleIndex(dir) } : null;
  }

  /** What article pages are rendered with: the site's sources and settings, not its posts. */
  const articleKey = () => computeSourceHash(root, [], buildSettings());

  /**
   * Every published post's page into `dir`, the unchanged ones linked from `live` when it was
   * rendered with `key` (articleKey()). Returns the pages' inline-script hashes and their files.
   */
  async function articlePages(dir: string, id: string, live: LiveRelease | null, key: string) {
    if (!opts.articles) return { scriptHashes: [], pageFiles: new Set<string>() };
    const result = await buildArticlePages({
      dir,
      live,
      key,
      source: opts.articles,
      scratch: path.join(root, STAGING_DIR, `${id}-articles`),
      render:
        opts.renderArticles ??
        ((snapshot, outDir) =>
          withProjectBuildLock(root, () =>
            runAstroBuild(outDir, {
              config: 'astro.articles.config.mjs',
              env: { BLOG_SNAPSHOT_PATH: snapshot },
            }),
          )),
    });
    opts.log.info(
      { release: id, rendered: result.rendered, reused: result.reused },
      `article pages: ${result.rendered} rendered, ${result.reused} unchanged`,
    );
    const pageFiles = new Set(Object.keys(result.index.pages));
    return { scriptHashes: result.index.scriptHashes, pageFiles, rendered: result.rendered };
  }

  /** The full build: `astro build` of the site, then the article pages that changed. */
  async function fillFull(outDir: string, id: string): Promise<ReleaseContent> {
    const stagingDir = path.join(root, STAGING_DIR, id);
    const hash = await sourceHash();
    try {
      await removeAbandonedStaging(root);
      const render = opts.render;
      if (render) await render(stagingDir);
      else await withProjectBuildLock(root, () => runAstroBuild(stagingDir));
      await moveDir(stagingDir, outDir);
    } finally {
      await rm(stagingDir, { recursive: true, force: true });
    }
    const articles = await articlePages(outDir, id, await liveRelease(), await articleKey());
    const files = await listFiles(outDir);
    // Unchanged files become hard links to the live release's: disk grows with changes only.
    await shareWithLiveRelease(opts.dataDir, id, outDir, files, opts.log);
    const pages = files.filter((file) => !articles.pageFiles.has(file));
    const hashes = new Set([
      ...(await inlineScriptHashes(outDir, pages)),
      ...articles.scriptHashes,
    ]);
    return { sourceHash: hash, files, inlineScriptHashes: [...hashes].sort() };
  }

  /**
   * The quick release: the live one with the pages of the posts that changed since rendered
   * again (or gone), everything else linked. The list pages, feed and sitemap wait for the full
   * build that follows. Null when it cannot help: no live release, or one of other sources.
   */
  async function fillChangedPages(
    live: LiveRelease,
    outDir: string,
    id: string,
  ): Promise<ReleaseContent | null> {
    const oldPages = new Set(Object.keys(live.index?.pages ?? {}));
    const kept = live.manifest.files.filter((file) => !oldPages.has(file));
    for (const folder of new Set(kept.map((file) => path.posix.dirname(file)))) {
      await mkdir(path.join(outDir, folder), { recursive: true });
    }
    await forEachLimited(kept, 16, (file) =>
      linkOrCopy(path.join(live.dir, file), path.join(outDir, file)),
    );
    // buildChangedPages checked that the live pages have the current key: not hashed again.
    const articles = await articlePages(outDir, id, live, live.index!.key);
    if (articles.rendered === 0 && articles.pageFiles.size === oldPages.size) return null;
    const hashes = new Set([...live.manifest.inlineScriptHashes, ...articles.scriptHashes]);
    return {
      // The list pages are still the live release's: a start-up finds it stale and rebuilds.
      sourceHash: live.manifest.sourceHash,
      files: await listFiles(outDir),
      inlineScriptHashes: [...hashes].sort(),
    };
  }

  /**
   * Makes one release with `fill` and switches to it (through `opts.publish` when set). A
   * failure leaves the previous release live and removes this one; `fill` returning null makes
   * no release.
   */
  async function release(
    kind: 'full' | 'pages',
    fill: (outDir: string, id: string) => Promise<ReleaseContent | null>,
  ): Promise<ReleaseManifest | null> {
    const started = Date.now();
    const { releases } = siteDirs(opts.dataDir);
    await mkdir(releases, { recursive: true });
    const id = `${new Date().toISOString().replace(/[-:.TZ]/g, '')}-${process.pid}`;
    const outDir = path.join(releases, id);
    opts.log.info({ release: id, kind }, 'site build started');
    let manifest: ReleaseManifest;
    try {
      const content = await fill(outDir, id);
      if (!content) {
        await rm(outDir, { recursive: true, force: true });
        opts.log.info({ release: id, kind }, 'site build had nothing to change');
        return null;
      }
      // Still the build: a release whose manifest cannot be written failed (counted, discarded).
      manifest = { id, builtAt: new Date().toISOString(), durationMs: 0, ...content };
      manifest.durationMs = Date.now() - started;
      await writeManifest(outDir, manifest);
    } catch (error) {
      opts.onBuildFinished?.((Date.now() - started) / 1000, false);
      await rm(outDir, { recursive: true, force: true });
      opts.log.error(
        { err: error, release: id },
        'site build failed; the previous release stays live',
      );
      throw error;
    }
    const goLive = async () => {
      await switchCurrent(opts.dataDir, id);
      await pruneReleases(opts.dataDir);
      opts.log.info({ release: id, kind, durationMs: manifest.durationMs }, 'site release live');
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

  const build = async () => (await release('full', fillFull))!;

  return {
    /** Builds a new release now; concurrent callers share the running build. */
    build(): Promise<ReleaseManifest> {
      running ??= build().finally(() => {
        running = null;
      });
      return running;
    },

    /**
     * Renders again only the pages of the posts that changed since the live release and makes
     * that live at once (seconds, however large the blog); the full build that should follow
     * brings the list pages, feed and sitemap. Null when there was nothing to do here: no article
     * source, no live release, a live release of other sources (only a full build renders those
     * pages), or no page changed.
     */
    async buildChangedPages(): Promise<ReleaseManifest | null> {
      if (!opts.articles) return null;
      const live = await liveRelease();
      if (!live?.index || live.index.key !== (await articleKey())) return null;
      return release('pages', (outDir, id) => fillChangedPages(live, outDir, id));
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

// What other domains use of the site builder (the publisher's type comes with plugin.ts).
export type { PageDigest } from './article-pages.ts';

/** The live release and when it was built (the admin's site status); nulls before the first build. */
export async function liveRelease(
  dataDir: string,
): Promise<{ id: string | null; builtAt: string | null }> {
  const id = await currentReleaseId(dataDir);
  const manifest = id ? await readManifest(path.join(siteDirs(dataDir).releases, id)) : null;
  return { id, builtAt: manifest?.builtAt ?? null };
}
