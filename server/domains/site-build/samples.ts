/**
 * Sample clips for the public pages: the home gallery, the landing pages and the effects cards
 * embed short videos of ours, made by the local renderer so the shipped site works offline on a
 * fresh machine. Rendering runs in the background after the server listens (pages never wait for
 * it); renders are cached by prompt and renderer source, so only a new prompt or a renderer
 * change costs a render, and the server answers `/samples/*` from the cache.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachLimited } from '../../core/concurrency.ts';
import type { MediaStore } from '../../core/media-store/types.ts';
import { sampleClipsFromContent, type SampleClip } from '../../../shared/samples.ts';
import { sharedClips } from './samples-store.ts';

/** A clip rendered into the cache. */
export interface CachedClip extends SampleClip {
  video: string;
  poster: string;
}

/** A clip `/samples/{id}.*` names: ready here or in the store (then `storeKeys` says where). */
interface ClipLookup {
  clip: CachedClip;
  ready: boolean;
  storeKeys: { video: string; poster: string } | null;
}

export interface SampleRenderRequest {
  prompt: string;
  mode: 'text';
  outputPath: string;
  posterPath: string;
  lowPriority?: boolean;
  signal?: AbortSignal;
}

export type SampleRenderer = (req: SampleRenderRequest) => Promise<unknown>;

interface Logger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/** The sample clips declared under `<root>/content` (missing landing or effects files are fine). */
export async function collectSampleClips(root: string): Promise<SampleClip[]> {
  const content = path.join(root, 'content');
  const landings: Record<string, unknown> = {};
  const landingDir = path.join(content, 'landings');
  const names = await readdir(landingDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json')).sort()) {
    landings[name] = await readJson(path.join(landingDir, name));
  }
  return sampleClipsFromContent({
    gallery: await readJson(path.join(content, 'gallery.json')),
    landings,
    effects: await readJson(path.join(content, 'effects.json')),
  });
}

/** The renderer's own source files: when they change, every cached clip is stale. */
const rendererFingerprint = async (): Promise<string> =>
  (await import('../video/service.ts')).localRenderer.rendererFingerprint();

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

export interface SampleLibraryOptions {
  projectRoot: string;
  /** Defaults to what `collectSampleClips(projectRoot)` finds. */
  clips?: readonly SampleClip[];
  /** Default `<projectRoot>/node_modules/.cache/veo3-samples` (config: SAMPLE_CACHE_DIR). */
  cacheDir?: string;
  /** Defaults to the project's local renderer (text mode). */
  render?: SampleRenderer;
  log?: Logger;
  /**
   * A shared store (the S3 bucket, several machines): clips rendered by any instance are put
   * under `samples/{key}/`, and an instance whose own cache lacks a clip sends visitors there
   * instead of rendering it again. Without one, the local cache is all there is.
   */
  store?: MediaStore | undefined;
}

function sampleCacheDir(projectRoot: string): string {
  return path.join(projectRoot, 'node_modules', '.cache', 'veo3-samples');
}

/** A render directory this old belongs to a build that was killed; a render takes seconds. */
const ABANDONED_AFTER_MS = 60 * 60 * 1000;

async function removeAbandonedRenders(cacheDir: string): Promise<void> {
  for (const name of await readdir(cacheDir)) {
    if (!name.startsWith('.tmp-')) continue;
    const dir = path.join(cacheDir, name);
    const info = await stat(dir).catch(() => null);
    if (info && Date.now() - info.mtimeMs > ABANDONED_AFTER_MS) {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

const defaultRender: SampleRenderer = async (req) => {
  // Loaded on first use: collecting clips (also done by the site's pages) needs no ffmpeg.
  const { localRenderer } = await import('../video/service.ts');
  return localRenderer.renderLocalVideo(req);
};

export interface RenderMissingOptions {
  /** Renders at once (default 1: the background job leaves the other core to requests). */
  concurrency?: number;
  /** Background work: ffmpeg at the lowest CPU priority. */
  lowPriority?: boolean;
  /** Reject on the first failure (a pre-render) instead of logging it and going on. */
  stopOnError?: boolean;
  /** Stops the run (the server is closing): the render in progress is killed, nothing kept. */
  signal?: AbortSignal;
}

/**
 * The site's sample clips and where each one stands: ready in the cache, or still to render.
 * Pages never wait for a clip: `/samples/*` answers a ready clip from the cache and a pending
 * one with a placeholder (see ./samples-routes.ts), and `renderMissing` fills the cache in the
 * background after the server listens.
 */
export async function openSampleLibrary(opts: SampleLibraryOptions) {
  const clips = opts.clips ?? (await collectSampleClips(opts.projectRoot));
  const cacheDir = opts.cacheDir ?? sampleCacheDir(opts.projectRoot);
  const render = opts.render ?? defaultRender;
  await mkdir(cacheDir, { recursive: true });
  await removeAbandonedRenders(cacheDir);
  const fingerprint = await rendererFingerprint();
  const keyOf = (prompt: string) =>
    createHash('sha256').update(fingerprint).update('\0').update(prompt, 'utf8').digest('hex');

  const cached: CachedClip[] = clips.map((clip) => {
    const dir = path.join(cacheDir, keyOf(clip.prompt).slice(0, 32));
    return { ...clip, video: path.join(dir, 'clip.mp4'), poster: path.join(dir, 'poster.jpg') };
  });
  const byId = new Map(cached.map((clip) => [clip.id, clip]));
  /** Render directories (one per prompt: two ids with one prompt share a render) in the cache. */
  const ready = new Set<string>();
  for (const clip of cached) {
    const dir = path.dirname(clip.video);
    if (!ready.has(dir) && (await exists(clip.video)) && (await exists(clip.poster))) {
      ready.add(dir);
    }
  }
  const isReady = (clip: CachedClip) => ready.has(path.dirname(clip.video));
  const shared = opts.store ? sharedClips(opts.store) : null;

  async function renderOne(clip: CachedClip, options: RenderMissingOptions): Promise<void> {
    const dir = path.dirname(clip.video);
    // Another instance rendered it into the shared store: visitors are sent there.
    if (await shared?.has(clip)) return;
    // Rendered here before the store was set up: share it as it is.
    if (isReady(clip)) return shared?.put(clip);
    const tmp = path.join(cacheDir, `.tmp-${randomBytes(6).toString('hex')}`);
    try {
      await render({
        prompt: clip.prompt,
        mode: 'text',
        outputPath: path.join(tmp, 'clip.mp4'),
        posterPath: path.join(tmp, 'poster.jpg'),
        ...(options.lowPriority ? { lowPriority: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
      await rename(tmp, dir).catch(async (error: NodeJS.ErrnoException) => {
        if (!['EEXIST', 'ENOTEMPTY'].includes(error.code ?? '')) throw error;
        // Another process rendered the same clip meanwhile: keep theirs if it is whole.
        if ((await exists(clip.video)) && (await exists(clip.poster))) return;
        await rm(dir, { recursive: true, force: true });
        await rename(tmp, dir);
      });
      ready.add(dir);
      await shared?.put(clip);
    } catch (error) {
      throw new Error(`Rendering sample clip "${clip.id}" (${clip.source}) failed`, {
        cause: error,
      });
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  }

  let running: Promise<number> | null = null;

  async function renderAll(options: RenderMissingOptions): Promise<number> {
    const seen = new Set<string>();
    const missing = cached.filter((clip) => {
      const dir = path.dirname(clip.video);
      if (seen.has(dir) || (isReady(clip) && (!shared || shared.known(clip)))) return false;
      seen.add(dir);
      return true;
    });
    if (missing.length === 0) return 0;
    const started = Date.now();
    let done = 0;
    let failed = 0;
    opts.log?.info(
      { clips: cached.length, missing: missing.length },
      `rendering sample clips 0/${missing.length}`,
    );
    await forEachLimited(missing, options.concurrency ?? 1, async (clip) => {
      if (options.signal?.aborted) return;
      try {
        await renderOne(clip, options);
      } catch (error) {
        if (options.stopOnError || options.signal?.aborted) throw error;
        failed += 1;
        opts.log?.error({ err: error, clip: clip.id }, 'sample clip render failed');
      }
      done += 1;
      opts.log?.info({ clip: clip.id }, `rendering sample clips ${done}/${missing.length}`);
    });
    opts.log?.info(
      { rendered: done - failed, failed, durationMs: Date.now() - started },
      'sample clips ready',
    );
    return done - failed;
  }

  return {
    clips: cached as readonly CachedClip[],

    /**
     * The clip `/samples/{id}.*` names and whether its files are in the cache; null if none. A
     * clip pending here is looked for on disk again: another process sharing the cache (another
     * instance, the e2e pre-render) may have rendered it.
     */
    async lookup(id: string): Promise<ClipLookup | null> {
      const clip = byId.get(id);
      if (!clip) return null;
      if (!isReady(clip) && (await exists(clip.video)) && (await exists(clip.poster))) {
        ready.add(path.dirname(clip.video));
      }
      if (isReady(clip)) return { clip, ready: true, storeKeys: null };
      // Not on this machine: in the shared store, if another instance rendered it.
      const inShared = shared && (await shared.has(clip).catch(() => false));
      return { clip, ready: Boolean(inShared), storeKeys: inShared ? shared.keys(clip) : null };
    },

    /** How many declared clips are ready. */
    readyCount: () => cached.filter(isReady).length,

    /**
     * Renders every clip missing from the cache, in declared order (the home gallery first), and
     * resolves with how many it rendered. Concurrent calls share one run.
     */
    renderMissing(options: RenderMissingOptions = {}): Promise<number> {
      running ??= renderAll(options).finally(() => {
        running = null;
      });
      return running;
    },
  };
}

export type SampleLibrary = Awaited<ReturnType<typeof openSampleLibrary>>;

/**
 * Makes sure every sample clip is in the cache, rendering the missing ones (two at a time by
 * default), and returns where each one is. A render failure rejects, naming the clip. Safe to run
 * from two processes at once: each render goes to a private directory renamed into place whole.
 */
export async function ensureSampleClips(
  opts: SampleLibraryOptions & { concurrency?: number; lowPriority?: boolean },
): Promise<readonly CachedClip[]> {
  const library = await openSampleLibrary(opts);
  await library.renderMissing({
    concurrency: opts.concurrency ?? 2,
    stopOnError: true,
    ...(opts.lowPriority ? { lowPriority: true } : {}),
  });
  return library.clips;
}
