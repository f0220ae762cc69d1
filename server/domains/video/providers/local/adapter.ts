/**
 * The local video provider (local mode default): renders with the project's ffmpeg renderer in
 * this process. Jobs live in DATA_DIR/jobs/<id>/ (input.json, the image, output.mp4), so a
 * worker that restarts after a crash finds the job and renders it again from its input.
 * At most `renders` jobs render at once (ffmpeg takes a core each); the rest wait their turn and
 * report their place, like a hosted provider's queue.
 */
import { randomUUID } from 'node:crypto';
import { access, copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VideoProviderError } from '../errors.ts';
import { renderLocalVideo } from './renderer.ts';
import type { VideoJobInput, VideoJobState, VideoProvider } from '../types.ts';

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

  function start(id: string, input: { prompt: string; mode: 'text' | 'image' }) {
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
            prompt: input.prompt,
            mode: input.mode,
            ...(input.mode === 'image' ? { imagePath: path.join(dir, 'image') } : {}),
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
      const id = `local-${randomUUID()}`;
      const dir = jobDir(id);
      await mkdir(dir, { recursive: true });
      if (input.mode === 'image') {
        if (!input.image) {
          throw new VideoProviderError('Image mode needs an image.', { kind: 'rejected' });
        }
        await writeFile(path.join(dir, 'image'), input.image.data);
      }
      await writeFile(
        path.join(dir, 'input.json'),
        JSON.stringify({ prompt: input.prompt, mode: input.mode }),
      );
      start(id, input);
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
      const input = JSON.parse(saved) as { prompt: string; mode: 'text' | 'image' };
      start(id, input);
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
