/**
 * Publishing: public content changes queue one debounced rebuild. Each turn writes the snapshot
 * of published posts, then makes the live release current: with the site's sources unchanged,
 * only the blog's pages are built again (`ensureCurrent`: the changed articles, the list pages,
 * the feeds and the sitemap, in one release, in seconds however large the blog). Changes made
 * during a build trigger exactly one more. A failed build keeps the previous release live and
 * records the error. Instances that share one database take turns (`exclusive`, a PostgreSQL
 * advisory lock): snapshot, build and, with SITE_PUBLISH=s3, the upload and pointer write are one
 * turn, so one instance builds at a time. Turns in one process also queue here, which is all
 * PGlite (one process) needs.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BuildStatus } from '../../contracts/blog.ts';
import type { ReleaseManifest } from './release.ts';
import { createTurn } from './release-sync.ts';
import type { PreparedSite, SiteBuilder } from './service.ts';

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export function createPublisher(deps: {
  builder: SiteBuilder | null;
  writeSnapshot: () => Promise<void>;
  debounceMs: number;
  log: Logger;
  /** Runs one snapshot-and-build turn while no other instance has one (default: at once). */
  exclusive?: <T>(fn: () => Promise<T>) => Promise<T>;
  /**
   * Whether a turn builds only the blog's pages when the site's sources are unchanged (default
   * true). Off with SITE_PUBLISH=s3: each turn builds a whole release.
   */
  quickPages?: boolean;
  /**
   * How start-up makes the live release current, inside the turn after the snapshot (default:
   * the builder's ensureCurrent; SITE_PUBLISH=s3: from the bucket, release-sync.ts).
   */
  current?: (builder: SiteBuilder) => Promise<ReleaseManifest>;
}) {
  const acrossInstances = deps.exclusive ?? (<T>(fn: () => Promise<T>) => fn());
  // A start-up turn and a scheduled one in this process wait for each other here, not on a
  // second database connection (and on PGlite, whose `exclusive` does not wait at all).
  const inProcess = createTurn();
  const exclusive = <T>(fn: () => Promise<T>) => inProcess(() => acrossInstances(fn));
  const status: BuildStatus = {
    state: 'live',
    startedAt: null,
    finishedAt: null,
    durationMs: null,
    error: null,
    releaseId: null,
  };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let builds = 0;

  async function run(): Promise<void> {
    const builder = deps.builder;
    if (!builder) return;
    status.state = 'building';
    status.startedAt = new Date().toISOString();
    const started = Date.now();
    try {
      // The snapshot is written inside the turn: written before it, another instance's turn
      // could replace it with an older read of the database and this build would publish that.
      const manifest = await exclusive(async () => {
        await deps.writeSnapshot();
        return deps.quickPages === false ? builder.build() : builder.ensureCurrent();
      });
      builds += 1;
      status.releaseId = manifest.id;
      status.error = null;
    } catch (error) {
      status.error = (error as Error).message.slice(0, 2000);
      deps.log.error({ err: error }, 'publish failed; the previous release stays live');
    } finally {
      status.finishedAt = new Date().toISOString();
      status.durationMs = Date.now() - started;
      status.state = 'live';
    }
  }

  function start() {
    running = run().finally(() => {
      running = null;
      if (again) {
        again = false;
        status.state = 'queued';
        start();
      }
    });
  }

  return {
    /**
     * At start: the live release, built first only when stale. In turn with other instances, so
     * instances starting together build once and the later ones find it current.
     */
    async ensureCurrent(opts: { prepared?: PreparedSite } = {}) {
      const builder = deps.builder;
      if (!builder) return null;
      return exclusive(async () => {
        await deps.writeSnapshot();
        return deps.current ? deps.current(builder) : builder.ensureCurrent(opts);
      });
    },

    /**
     * `ensureCurrent` for start-up, which must never end the process: a failed build is logged
     * with its cause, shown in status(), and tried again after a pause that doubles from
     * `retryMs` up to `maxRetryMs`, until a release is live or `signal` aborts (then null).
     * `prepared`: the site's build started ahead (main.ts), for the first attempt.
     */
    async ensureCurrentRetrying(
      opts: {
        retryMs?: number;
        maxRetryMs?: number;
        signal?: AbortSignal;
        prepared?: PreparedSite;
      } = {},
    ): Promise<ReleaseManifest | null> {
      let pause = opts.retryMs ?? 5000;
      let prepared = opts.prepared;
      for (let attempt = 1; !opts.signal?.aborted; attempt += 1) {
        try {
          const first = prepared ? { prepared } : {};
          prepared = undefined;
          const manifest = await this.ensureCurrent(first);
          status.error = null;
          return manifest;
        } catch (error) {
          status.error = (error as Error).message.slice(0, 2000);
          deps.log.error(
            { err: error, attempt, retryInSeconds: pause / 1000 },
            `site build failed; trying again in ${pause / 1000} s (the API keeps serving)`,
          );
        }
        try {
          await sleep(pause, undefined, opts.signal ? { signal: opts.signal } : {});
        } catch {
          break; // aborted: the app is closing
        }
        pause = Math.min(pause * 2, opts.maxRetryMs ?? 5 * 60_000);
      }
      return null;
    },

    /** Queue one rebuild after the debounce; repeated calls in the window make one build. */
    schedule(): void {
      if (!deps.builder) return;
      if (status.state !== 'building') status.state = 'queued';
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        if (running) again = true;
        else start();
      }, deps.debounceMs);
      timer.unref();
    },

    status(): BuildStatus {
      return { ...status, state: running ? 'building' : timer || again ? 'queued' : status.state };
    },

    /** Resolves when no build is queued or running (tests, graceful shutdown). */
    async idle(): Promise<void> {
      while (timer || running || again) {
        await (running ?? new Promise((r) => setTimeout(r, 20)));
      }
    },

    /** Completed builds since start. */
    buildCount: () => builds,
  };
}

export type Publisher = ReturnType<typeof createPublisher>;
