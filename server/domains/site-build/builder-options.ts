/** The site builder's options and the shapes its steps pass around (service.ts). */
import type { ArticleIndex, ArticleRenderer, ArticleSource } from './article-pages.ts';
import type { ReleaseManifest } from './release.ts';
import type { SourceDigest } from './source-hash.ts';

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** A release's manifest but for its id, time and duration. */
export type ReleaseContent = Pick<
  ReleaseManifest,
  'sourceHash' | 'files' | 'inlineScriptHashes' | 'siteKey' | 'partial'
>;

/** The live release as a build reads it. */
export interface LiveRelease {
  id: string;
  dir: string;
  manifest: ReleaseManifest;
  index: ArticleIndex | null;
}

interface CommonOptions {
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
  /**
   * Writes the site into the directory instead of `astro build` (tests: a release in
   * milliseconds). Without `renderArticles` it renders the whole site: no blog pages apart.
   */
  render?: (outDir: string) => Promise<void>;
  /** Renders a batch of the blog's pages instead of `astro build` (tests). */
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

/**
 * The blog's posts, when their pages are built apart (article-pages.ts): the site build then
 * renders none of the blog's pages (BLOG_PAGES=separate), and each build of the blog's part
 * renders only the changed articles, and the list pages, feeds and sitemap from `listSnapshot`
 * (the list form of every published post, one of the `extraSources`).
 */
type BlogOptions =
  | { articles?: undefined; listSnapshot?: undefined }
  | { articles: ArticleSource; listSnapshot: string };

export type SiteBuilderOptions = CommonOptions & BlogOptions;
