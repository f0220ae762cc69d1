/**
 * The local video provider (local mode default): renders with the project's ffmpeg renderer in
 * this process. Jobs live in DATA_DIR/jobs/<id>/ (input.json with the prompt, mode and options;
 * the first frame, end frame, reference images and the video to extend, each as it was sent;
 * output.mp4), so a worker that restarts after a crash finds the job and renders it again from
 * its input. The job id is only `local-<uuid>`, far under the 2 KB a job id may take.
 * At most `renders` jobs render at once (ffmpeg takes a core each); the rest wait their turn and
 * report their place, like a hosted provider's queue.
 */
import { randomUUID } from 'node:crypto';
import { access, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_OPTIONS, type VideoOptions } from '../../../../../shared/video-options.ts';
import { VideoProviderError } from '../errors.ts';
import { optionInputProblem } from '../option-inputs.ts';
import { renderLocalVideo, type RenderRequest } from './renderer.ts';
import type { VideoJobInput, VideoJobState, VideoMode, VideoProvider } from '../types.ts';

/** input.json: what a render needs besides its files (which options.* say are there). */
export interface SavedJob {
  prompt: string;
  mode: VideoMode;
  /** Absent in a job saved before the options existed: the spec's clip. */
  options?: VideoOptions;
}

/** The files of a job beside input.json, by what they hold. */
const FILES = {
  image: 'image',
  lastFrame: 'last-frame',
  reference: (i: number) => `reference-${i}`,
  source: 'source.mp4',
};

const rejected = (message: string) => new VideoProviderError(message, { kind: 'rejected' });

/** Refuses a job whose images or video do not match its options (the worker's fault, not ours). */
function checkInput(input: VideoJobInput): void {
  if (input.mode === 'image' && !input.options.extend && !input.image) {
    throw rejected('Image mode needs an image.');
  }
  const problem = optionInputProblem(input);
  if (problem) throw rejected(`local: ${problem}.`);
}

/** The render of a saved job, its files read from `dir` (a job saved without options: the spec's clip). */
export function renderRequestOf(
  saved: SavedJob,
  dir: string,
): Omit<RenderRequest, 'outputPath' | 'posterPath'> {
  const options = saved.options ?? DEFAULT_OPTIONS;
  const { aspectRatio, resolution, tier, negativePrompt, seed } = options;
  const file = (name: string) => path.join(dir, name);
  return {
    prompt: saved.prompt,
    mode: saved.mode,
    options: { aspectRatio, resolution, tier, negativePrompt, seed },
    ...(saved.mode === 'image' && !options.extend ? { imagePath: file(FILES.image) } : {}),
    ...(options.lastFrame ? { lastFramePath: file(FILES.lastFrame) } : {}),
    ...(options.referenceImages > 0
      ? {
          referenceImagePaths: Array.from({ length: options.referenceImages }, (_, i) =>
            file(FILES.reference(i)),
          ),
        }
      : {}),
    ...(options.extend ? { sourceVideoPath: file(FILES.source) } : {}),
  };
}

interface RunningJob {
  progress: number;
  done: Promise<void>;
  error: Error | null;
  finished: boolean;
  /** Waiting for a render slot. */
  queued: boolean;
  cancelled: boolean;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

export function createLocalVideoProvider(opts: {
  jobsDir: string;
  /** Prompts matching this fail on purpose (LOCAL_RENDER_FAIL_PATTERN), to try the failure path. */
  failPattern?: RegExp | null;
  /** Renders at once (default 2). */
  renders?: number;
}): VideoProvider {
  const running = new Map<string, RunningJob>();
  const waiting: Array<() => void> = [];
  let rendering = 0;
  const slots = Math.max(1, opts.renders ?? 2);
  /** Resolves when a render slot is free (first come, first served). */
  const acquire = () =>
    rendering < slots
      ? (rendering++, Promise.resolve())
      : new Promise<void>((resolve) => waiting.push(() => (rendering++, resolve())));
  const releaseSlot = () => {
    rendering--;
    waiting.shift()?.();
  };
  const jobDir = (id: string) => {
    if (!/^local-[0-9a-f-]{36}$/.test(id)) throw new Error(`not a local job id: ${id}`);
    return path.join(opts.jobsDir, id);
  };

  function start(id: string, input: SavedJob) {
    const dir = jobDir(id);
    const job: RunningJob = {
      progress: 0,
      error: null,
      finished: false,
      queued: true,
      cancelled: false,
      done: Promise.resolve(),
    };
    if (opts.failPattern?.test(input.prompt)) {
      job.error = new Error(
        'this prompt matches LOCAL_RENDER_FAIL_PATTERN, so the local renderer failed it on purpose.',
      );
      job.queued = false;
      job.finished = true;
      running.set(id, job);
      return job;
    }
    const partial = path.join(dir, 'output.part.mp4');
    job.done = acquire()
      .then(async () => {
        job.queued = false;
        try {
          if (job.cancelled) throw new Error('cancelled');
          await renderLocalVideo({
            ...renderRequestOf(input, dir),
            outputPath: partial,
            posterPath: path.join(dir, 'poster.jpg'),
            onProgress: (fraction) => {
              job.progress = fraction;
            },
          });
        } finally {
          releaseSlot();
        }
      })
      // The finished file appears under its final name only when complete.
      .then(() => rename(partial, path.join(dir, 'output.mp4')))
      .catch((error: unknown) => {
        job.error = error instanceof Error ? error : new Error(String(error));
      })
      .finally(() => {
        job.finished = true;
      });
    running.set(id, job);
    return job;
  }

  return {
    name: 'local',

    async submit(input: VideoJobInput) {
      checkInput(input);
      const id = `local-${randomUUID()}`;
      const dir = jobDir(id);
      await mkdir(dir, { recursive: true });
      const { options } = input;
      const save = (name: string, data: Buffer) => writeFile(path.join(dir, name), data);
      if (input.image && input.mode === 'image' && !options.extend) {
        await save(FILES.image, input.image.data);
      }
      if (options.lastFrame) await save(FILES.lastFrame, input.lastFrame!.data);
      for (const [i, image] of (input.referenceImages ?? []).entries()) {
        await save(FILES.reference(i), image.data);
      }
      if (options.extend) await save(FILES.source, input.sourceVideo!.data);
      // Last: a job whose input.json exists has all its files (a crash before it loses the job).
      const saved: SavedJob = { prompt: input.prompt, mode: input.mode, options };
      await writeFile(path.join(dir, 'input.json'), JSON.stringify(saved));
      start(id, saved);
      return id;
    },

    async poll(id): Promise<VideoJobState> {
      const dir = jobDir(id);
      const job = running.get(id);
      if (job?.queued) {
        return {
          state: 'queued',
          position: [...running.values()].filter((j) => j.queued).indexOf(job),
        };
      }
      if (job && !job.finished) return { state: 'running', progress: job.progress };
      if (await exists(path.join(dir, 'output.mp4'))) return { state: 'succeeded' };
      if (job?.error) {
        running.delete(id);
        return {
          state: 'failed',
          kind: 'provider',
          detail: `The local renderer failed: ${job.error.message.split('\n')[0]}`,
        };
      }
      // Not running here and not finished: the process that started it died. Start again from
      // its input; a process killed before writing the input (or after handing the video over
      // and removing the job) left nothing to start from: that job is lost.
      const saved = await readFile(path.join(dir, 'input.json'), 'utf8').catch(() => null);
      if (saved === null) {
        return { state: 'failed', kind: 'provider', detail: `the local job ${id} was lost` };
      }
      start(id, JSON.parse(saved) as SavedJob);
      return { state: 'running', progress: 0 };
    },

    requestIdOf: (id) => id,

    async cancel(id) {
      const job = running.get(id);
      if (job) job.cancelled = true;
    },

    async download(id, destPath) {
      await copyFile(path.join(jobDir(id), 'output.mp4'), destPath);
      running.delete(id);
      await rm(jobDir(id), { recursive: true, force: true });
    },
  };
}
