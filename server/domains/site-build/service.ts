/**
 * The site builder: runs `astro build` into a new release directory and switches the live
 * release atomically. A failed build leaves the previous release live. One build at a time.
 * A release has two parts: the site (every page that shows no post: one `astro build` of
 * astro.config.mjs) and, when the builder has the blog's posts (`articles`), the blog's pages,
 * built apart (article-pages.ts). A publish builds only the blog's part, on top of the live
 * release's site part: the changed articles, the list pages, the feeds and the sitemap go live
 * together. A first start makes the site part live alone as soon as it is built (it needs no
 * data, so main.ts starts it before the app: `prepareSite`), then the blog's part on top.
 * With SITE_PUBLISH=s3 a publish step (release-publish.ts) runs between the build and the switch:
 * the release goes live here only once the bucket's pointer names it.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from '../../core/concurrency.ts';
import {
  blogFiles,
  buildArticlePages,
  linkOrCopy,
  planArticlePages,
  readArticleIndex,
  type ArticlePlan,
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
import { computeSourceHash, PROJECT_ROOT } from './source-hash.ts';

export { PROJECT_ROOT, SOURCE_PATHS } from './source-hash.ts';
export { prepareSite, type PreparedSite } from './site-part.ts';
import {
  buildSettings,
  liveManifest,
  moveDir,
  removeAbandonedStaging,
  runAstroBuild,
  SITE_APART_ENV,
  STAGING_DIR,
  type PreparedSite,
} from './site-part.ts';
import type { LiveRelease, ReleaseContent, SiteBuilderOptions } from './builder-options.ts';
export type { SiteBuilderOptions } from './builder-options.ts';

export function createSiteBuilder(opts: SiteBuilderOptions) {
  const root = opts.projectRoot ?? PROJECT_ROOT;
  let running: Promise<ReleaseManifest> | null = null;
  // A stand-in for the site's build with none for the blog's renders the whole site.
  const blog =
    opts.articles && (!opts.render || opts.renderArticles)
      ? { source: opts.articles, listSnapshot: opts.listSnapshot }
      : null;

  const settings = () => buildSettings(opts.publicSiteUrl, opts.buildEnv);

  const sourceHash = () =>
    computeSourceHash(root, opts.extraSources, settings(), opts.sourceDigest);

  /** What the site part is built from: without the posts when the blog's pages are apart. */
  const siteKey = () => (blog ? computeSourceHash(root, [], settings()) : sourceHash());

  const astro = (outDir: string, env: Record<string, string>, config?: string) =>
    withProjectBuildLock(root, () =>
      runAstroBuild(root, outDir, {
        publicSiteUrl: opts.publicSiteUrl,
        env: { ...opts.buildEnv, ...env },
        ...(config ? { config } : {}),
      }),
    );

  /** The live release's folder, manifest and article index, or null before the first. */
  async function liveRelease(): Promise<LiveRelease | null> {
    const id = await currentReleaseId(opts.dataDir);
    if (!id) return null;
    const dir = path.join(siteDirs(opts.dataDir).releases, id);
    const manifest = await readManifest(dir);
    return manifest ? { id, dir, manifest, index: await readArticleIndex(dir) } : null;
  }

  /**
   * The site part into `outDir`: the prepared build when it was built from `key`, else a new
   * `astro build` (or the stand-in).
   */
  async function fillSitePart(outDir: string, id: string, key: string, prepared?: PreparedSite) {
    const staged = prepared && (await prepared.ready);
    if (staged && staged.key === key && blog) {
      opts.log.info({ release: id }, 'the site part was built ahead of the app');
      try {
        await moveDir(staged.dir, outDir);
      } finally {
        await rm(staged.dir, { recursive: true, force: true });
      }
      return;
    }
    if (staged) await rm(staged.dir, { recursive: true, force: true });
    const stagingDir = path.join(root, STAGING_DIR, id);
    try {
      await removeAbandonedStaging(root);
      const render = opts.render;
      if (render) await render(stagingDir);
      else await astro(stagingDir, blog ? SITE_APART_ENV : {});
      await moveDir(stagingDir, outDir);
    } finally {
      await rm(stagingDir, { recursive: true, force: true });
    }
  }

  /**
   * The blog's pages into `outDir`, the unchanged articles linked from `live` when it was
   * rendered with `key`. Returns their inline-script hashes and their files.
   */
  async function fillBlogPart(
    outDir: string,
    id: string,
    live: LiveRelease | null,
    key: string,
    plan?: ArticlePlan,
  ) {
    if (!blog) return { scriptHashes: [], files: new Set<string>(), lists: [] };
    const result = await buildArticlePages({
      dir: outDir,
      live,
      key,
      source: blog.source,
      listSnapshot: blog.listSnapshot,
      scratch: path.join(root, STAGING_DIR, `${id}-articles`),
      ...(plan ? { plan } : {}),
      render:
        opts.renderArticles ??
        ((snapshot, dir, listSnapshot) =>
          astro(
            dir,
            {
              BLOG_SNAPSHOT_PATH: snapshot,
              ...(listSnapshot ? { BLOG_LIST_SNAPSHOT_PATH: listSnapshot } : {}),
            },
            'astro.articles.config.mjs',
          )),
    });
    opts.log.info(
      { release: id, rendered: result.rendered, reused: result.reused },
      `blog pages: ${result.rendered} articles rendered, ${result.reused} unchanged, ${result.index.lists?.length ?? 0} list files`,
    );
    return {
      scriptHashes: result.index.scriptHashes,
      files: blogFiles(result.index),
      lists: result.index.lists ?? [],
    };
  }

  /** The whole release: the site part (prepared, or built now), then the blog's. */
  async function fillFull(
    outDir: string,
    id: string,
    prepared?: PreparedSite,
  ): Promise<ReleaseContent> {
    const [hash, key] = [await sourceHash(), await siteKey()];
    await fillSitePart(outDir, id, key, prepared);
    const blogPart = await fillBlogPart(outDir, id, await liveRelease(), key);
    const files = await listFiles(outDir);
    // Unchanged files become hard links to the live release's: disk grows with changes only.
    await shareWithLiveRelease(opts.dataDir, id, outDir, files, opts.log);
    const pages = files.filter((file) => !blogPart.files.has(file));
    const hashes = new Set([
      ...(await inlineScriptHashes(outDir, pages)),
      ...blogPart.scriptHashes,
    ]);
    return { sourceHash: hash, siteKey: key, files, inlineScriptHashes: [...hashes].sort() };
  }

  /** The site part alone: what a first start serves while the blog's pages build. */
  async function fillSiteOnly(
    outDir: string,
    id: string,
    prepared?: PreparedSite,
  ): Promise<ReleaseContent> {
    const key = await siteKey();
    await fillSitePart(outDir, id, key, prepared);
    const files = await listFiles(outDir);
    return {
      // Never current: the blog's pages are missing (currentIfFresh looks at `partial`).
      sourceHash: '',
      siteKey: key,
      partial: true,
      files,
      inlineScriptHashes: await inlineScriptHashes(outDir, files),
    };
  }

  /**
   * The live release with its blog part built again: the site part linked, the unchanged
   * articles linked, the changed ones, the list pages, feeds and sitemap rendered.
   */
  async function fillBlogOnly(
    live: LiveRelease,
    plan: ArticlePlan,
    hash: string,
    outDir: string,
    id: string,
  ): Promise<ReleaseContent> {
    const replaced = blogFiles(live.index);
    const kept = live.manifest.files.filter((file) => !replaced.has(file));
    for (const folder of new Set(kept.map((file) => path.posix.dirname(file)))) {
      await mkdir(path.join(outDir, folder), { recursive: true });
    }
    await forEachLimited(kept, 16, (file) =>
      linkOrCopy(path.join(live.dir, file), path.join(outDir, file)),
    );
    const blogPart = await fillBlogPart(outDir, id, live, live.manifest.siteKey!, plan);
    // A list page, feed or sitemap that came out as it was is linked to the live one's bytes.
    await shareWithLiveRelease(opts.dataDir, id, outDir, blogPart.lists, opts.log);
    const hashes = new Set([...live.manifest.inlineScriptHashes, ...blogPart.scriptHashes]);
    return {
      sourceHash: hash,
      siteKey: live.manifest.siteKey!,
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
    kind: 'full' | 'blog' | 'site',
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
      opts.log.info({ release: id, kind, durationMs: manifest.durationMs }, 'site release live');
      // Served before the old releases are deleted: pruning thousands of files takes a while.
      await opts.onSwitch?.(manifest);
      await pruneReleases(opts.dataDir);
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

  const buildFull = async (prepared?: PreparedSite) =>
    (await release('full', (outDir, id) => fillFull(outDir, id, prepared)))!;

  /** The blog part on top of the live release: null when it cannot help or nothing changed. */
  async function buildBlog(): Promise<ReleaseManifest | null> {
    if (!blog) return null;
    const live = await liveRelease();
    if (!live?.manifest.siteKey || live.manifest.siteKey !== (await siteKey())) return null;
    const plan = await planArticlePages(blog.source, live.index, live.manifest.siteKey);
    const hash = await sourceHash();
    const unchanged =
      !live.manifest.partial &&
      live.manifest.sourceHash === hash &&
      plan.render.length === 0 &&
      !plan.drops;
    if (unchanged) return null;
    return release('blog', (outDir, id) => fillBlogOnly(live, plan, hash, outDir, id));
  }

  async function currentIfFresh(): Promise<ReleaseManifest | null> {
    const manifest = await liveManifest(opts.dataDir);
    return manifest && !manifest.partial && manifest.sourceHash === (await sourceHash())
      ? manifest
      : null;
  }

  return {
    /** Builds a whole new release now; concurrent callers share the running build. */
    build(): Promise<ReleaseManifest> {
      running ??= buildFull().finally(() => {
        running = null;
      });
      return running;
    },

    /**
     * Builds the blog's pages again on top of the live release and makes that live at once
     * (seconds, however large the blog): the pages of the posts that changed, the list pages,
     * the feeds and the sitemap. Null when there was nothing to do here: no blog part, no live
     * release, a live release of other sources (only a full build renders those pages), or no
     * post changed.
     */
    buildChangedPages: buildBlog,

    /** The hash of the site's inputs as they are now (a release built from them carries it). */
    sourceHash,

    /** The hash of the site part's inputs (no posts when the blog's pages are apart). */
    siteKey,

    /** The live release's manifest when it was built from the current inputs, else null. */
    currentIfFresh,

    /**
     * The live release's manifest, building first when there is none or it is stale: only the
     * blog's part when the site's sources are those of the live release (nothing when no post
     * changed either); with nothing complete live, the site part first (live at once), then the
     * blog's; else a whole release.
     * `prepared`: the site part's build started ahead (main.ts), taken when it fits.
     */
    async ensureCurrent(options: { prepared?: PreparedSite } = {}): Promise<ReleaseManifest> {
      let prepared = options.prepared;
      const take = () => {
        const taken = prepared;
        prepared = undefined;
        return taken;
      };
      try {
        if (!blog || opts.publish) return (await currentIfFresh()) ?? (await buildFull(take()));
        const live = await liveRelease();
        if (live?.manifest.siteKey !== (await siteKey())) {
          // Another deploy's release stays live until the whole new one is built.
          if (live && !live.manifest.partial) return await buildFull(take());
          await release('site', (outDir, id) => fillSiteOnly(outDir, id, take()));
        }
        // The posts' pages are compared one by one: an edit deep in a body leaves the list
        // form of the posts, and so the source hash, as it was.
        return (await buildBlog()) ?? (await liveManifest(opts.dataDir))!;
      } finally {
        // Not taken (the live release was current): its output is not needed.
        prepared?.cancel();
      }
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
