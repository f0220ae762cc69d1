/**
 * The site-build domain in the app, in two plugins. `site-build`: the publisher that rebuilds
 * the static release when public content changes (`app.publisher`, `app.siteBuilder`,
 * `app.writeSnapshot`, `app.siteRelease` for the blog, admin and main.ts); with SITE_PUBLISH=s3
 * each build is published to the bucket and, with SERVE_SITE, this instance follows the bucket's
 * live release (`app.releaseSync`). `site`, registered last: the sample clips (`app.samples`)
 * and, with SERVE_SITE, the live release on this port.
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { LOCK_KEYS, SITE_RELEASE_CHANNEL, type Database } from '../../core/db.ts';
import { siteBuildMetrics } from '../../core/metrics.ts';
import type { BlogService } from '../blog/service.ts';
import { createPostsSiteBuilder, postsSnapshotPath, writePostsSnapshot } from './posts-snapshot.ts';
import { createPublisher, type Publisher } from './publisher.ts';
import { siteDirs } from './release.ts';
import { createReleasePublisher } from './release-publish.ts';
import {
  createReleaseSync,
  createTurn,
  currentFromBucket,
  type ReleaseSync,
} from './release-sync.ts';
import { openSampleLibrary, type SampleLibrary, type SampleRenderer } from './samples.ts';
import { samplesRoutes } from './samples-routes.ts';
import { PROJECT_ROOT, type SiteBuilder } from './service.ts';
import { articleAddress, blogPath, postPath } from '../../../shared/blog.ts';
import {
  loadLiveRelease,
  staticSitePlugin,
  type LiveRelease,
  type SiteFallback,
} from './static-site.ts';

declare module 'fastify' {
  interface FastifyInstance {
    siteRelease: LiveRelease;
    publisher: Publisher;
    siteBuilder: SiteBuilder | null;
    /** SITE_PUBLISH=s3 with SERVE_SITE: follows the bucket's live release; else null. */
    releaseSync: ReleaseSync | null;
    /** The site's sample clips; main.ts renders the missing ones in the background. */
    samples: SampleLibrary;
    /** Writes the published-posts snapshot the static build reads. */
    writeSnapshot: () => Promise<void>;
  }
}

/** The composition root creates the live release's index: security headers read it too. */
export type { Publisher } from './publisher.ts';
export { emptyLiveRelease } from './static-site.ts';

/** What the build and the /blog/{slug} fallback read from the blog. */
export type PublishedPosts = Pick<
  BlogService,
  'snapshot' | 'resolveSlug' | 'pageDigests' | 'pagePosts'
>;

export const siteBuildPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      database: Database;
      /** The live release's index; the security headers read its inline-script hashes. */
      release: LiveRelease;
      /**
       * The blog's posts. The blog plugin registers after this one (it schedules rebuilds through
       * the publisher), so they are read when a build runs, never at registration.
       */
      posts: () => PublishedPosts;
      /** Debounce between a public content change and its rebuild (default 0.5 s). */
      publishDebounceMs?: number | undefined;
      /** Writes the site instead of `astro build` (tests). */
      siteRenderer?: ((outDir: string) => Promise<void>) | undefined;
      /** SITE_PUBLISH=s3: how often the bucket's pointer is read besides notifications (30 s). */
      releasePollMs?: number | undefined;
    },
  ) => {
    const { config, database, release } = opts;
    const toBucket = config.scale.sitePublish === 's3';
    const store = app.mediaStore;
    const reload = () => loadLiveRelease(config.dataDir, release);
    // This instance's switches of `current`: its own builds' and those synced from the bucket.
    const turn = createTurn();
    const releasePublisher = toBucket
      ? createReleasePublisher({
          store,
          log: app.log,
          turn,
          notify: async (id) => {
            await database.db.execute(sql`select pg_notify(${SITE_RELEASE_CHANNEL}, ${id})`);
          },
          hook: config.scale.sitePublishHook,
          onHookFailed: () => app.metrics.sitePublishHookFailures.inc(),
        })
      : null;
    // SERVE_SITE=false with SITE_PUBLISH=s3 still builds: the release is served from the bucket.
    const builder =
      config.serveSite || toBucket
        ? createPostsSiteBuilder({
            dataDir: config.dataDir,
            publicSiteUrl: config.publicSiteUrl,
            log: app.log,
            onSwitch: reload,
            onBuildFinished: siteBuildMetrics(app.metrics),
            articles: {
              pageDigests: () => opts.posts().pageDigests(),
              pagePosts: (slugs) => opts.posts().pagePosts(slugs),
            },
            ...(releasePublisher ? { publish: releasePublisher.publish } : {}),
            ...(opts.siteRenderer ? { render: opts.siteRenderer } : {}),
          })
        : null;
    const notices = config.scale.databaseNotify === 'listen' && database.changeNotices !== 'poll';
    const releaseSync =
      toBucket && config.serveSite
        ? createReleaseSync({
            store,
            dataDir: config.dataDir,
            log: app.log,
            turn,
            onSwitch: reload,
            listen: notices
              ? (changed) =>
                  database.listen(SITE_RELEASE_CHANNEL, {
                    notify: changed,
                    // Listening (again): a notification may have been missed meanwhile.
                    gap: (listening) => {
                      if (listening) changed();
                    },
                  })
              : null,
            pollMs: opts.releasePollMs ?? 30_000,
          })
        : null;
    const snapshotPath = postsSnapshotPath(config.dataDir);
    // Without a builder, `astro dev` renders the pages, every article from this snapshot.
    const writeSnapshot = () =>
      writePostsSnapshot(snapshotPath, () => opts.posts().snapshot(builder ? 'list' : 'whole'));
    const publisher = createPublisher({
      builder,
      writeSnapshot,
      debounceMs: opts.publishDebounceMs ?? 500,
      quickPages: !toBucket,
      log: app.log,
      exclusive: (fn) => database.exclusive(LOCK_KEYS.siteBuild, fn),
      ...(releasePublisher
        ? {
            current: (siteBuilder: SiteBuilder) =>
              currentFromBucket({
                store,
                builder: siteBuilder,
                sync: releaseSync,
                publishExisting: (manifest) =>
                  releasePublisher.publish(
                    manifest,
                    path.join(siteDirs(config.dataDir).releases, manifest.id),
                    async () => {}, // already live here
                  ),
              }),
          }
        : {}),
    });
    if (releaseSync) {
      app.addHook('onReady', () => releaseSync.start());
      app.addHook('onClose', () => releaseSync.stop());
    }
    app.decorate('siteRelease', release);
    app.decorate('publisher', publisher);
    app.decorate('siteBuilder', builder);
    app.decorate('releaseSync', releaseSync);
    app.decorate('writeSnapshot', writeSnapshot);
  },
  { name: 'site-build', dependencies: ['database', 'media-store'] },
);

/**
 * What this instance serves of the site: the sample clips, and with SERVE_SITE the live release
 * for every address no route takes. Register it last: the release server decorates
 * `reply.sendFile` at the root, which the static-file scopes registered before it would clash
 * with.
 */
export const sitePlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      config: Config;
      release: LiveRelease;
      posts: PublishedPosts;
      /** Default: the local ffmpeg renderer. */
      sampleRenderer?: SampleRenderer | undefined;
    },
  ) => {
    const { config, release } = opts;
    // The site's sample clips, from the render cache (releases carry none).
    // Several machines share the clips through the bucket; a local store adds nothing to the cache.
    const store = app.mediaStore.kind === 's3' ? app.mediaStore : undefined;
    const samples = await openSampleLibrary({
      projectRoot: PROJECT_ROOT,
      store,
      log: app.log,
      ...(opts.sampleRenderer ? { render: opts.sampleRenderer } : {}),
      ...(config.samples.cacheDir ? { cacheDir: config.samples.cacheDir } : {}),
    });
    await app.register(samplesRoutes, { samples, store });
    app.decorate('samples', samples);

    if (config.serveSite) {
      await loadLiveRelease(config.dataDir, release);
      await app.register(staticSitePlugin, {
        dataDir: config.dataDir,
        release,
        fallback: blogArticleFallback(opts.posts),
      });
    }
  },
  { name: 'site', dependencies: ['access', 'site-build', 'blog', 'media-store'] },
);

/**
 * An article address without a page of its own: an old slug, or a post's address in the other
 * language, redirects to the post's address; a post published while the rebuild is pending gets
 * its language's article shell, which loads it from the API; an unknown slug the shell's 404.
 */
export function blogArticleFallback(posts: PublishedPosts): SiteFallback {
  return async (urlPath) => {
    const address = articleAddress(urlPath);
    if (!address) return null;
    const found = await posts.resolveSlug(address.slug);
    const shell = `${blogPath(address.locale).slice(1)}/article-shell.html`;
    if (found.published) {
      if (found.published.locale === address.locale) return { file: shell, status: 200 };
      return { redirect: postPath(address.slug, found.published.locale) };
    }
    if (found.redirectTo)
      return { redirect: postPath(found.redirectTo.slug, found.redirectTo.locale) };
    return { file: shell, status: 404 };
  };
}
