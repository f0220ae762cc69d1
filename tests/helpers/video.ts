/**
 * Helpers for video tests: credits for a user, multipart bodies, generation requests, images,
 * a provider double.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { queryRows, type Db } from '../../server/core/db.ts';
import { createVideoMedia } from '../../server/domains/video/media.ts';
import { createVideoWorker, type WorkerOptions } from '../../server/domains/video/worker.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { shapedVideo } from '../fakes/video/shape.ts';
import { EXTEND_SECONDS } from '../../shared/video-options.ts';
import { createCreditsService } from '../../server/domains/credits/service.ts';
import type {
  VideoJobInput,
  VideoJobState,
  VideoProvider,
} from '../../server/domains/video/providers/types.ts';
import { bearer, type TestApp } from './app.ts';

export async function grantCredits(t: TestApp, userId: string, amount: number) {
  await createCreditsService(t.database.db).apply({
    userId,
    amount,
    sourceType: 'test_grant',
    sourceId: randomUUID(),
    description: 'test credits',
  });
}

/** A file field of a multipart body. */
export interface MultipartFile {
  name: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A multipart/form-data body as browsers send it (files after the fields, in order). */
export function multipart(fields: Record<string, string>, file?: MultipartFile | MultipartFile[]) {
  const boundary = `----veo3test${randomUUID().replaceAll('-', '')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  for (const f of file === undefined ? [] : [file].flat()) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** POST /api/video/generate with a multipart body, as the generator sends it. */
export function requestGeneration(
  app: FastifyInstance,
  token: string | null,
  fields: Record<string, string>,
  file?: MultipartFile | MultipartFile[],
  extraHeaders: Record<string, string> = {},
) {
  const body = multipart(fields, file);
  return app.inject({
    method: 'POST',
    url: '/api/video/generate',
    headers: { ...body.headers, ...(token ? bearer(token) : {}), ...extraHeaders },
    payload: body.payload,
  });
}

/** A real PNG of one colour. */
export const pngImage = (width = 64, height = 48, color = { r: 220, g: 30, b: 30 }) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/**
 * An in-memory provider: each job runs `polls` polls, then succeeds (its download is the fakes'
 * real 8 s test video) or fails as told. It counts submits per prompt so tests can prove each
 * task ran once.
 */
export function fakeProvider(
  opts: {
    polls?: number;
    failFor?: (prompt: string) => string | null;
    name?: string;
  } = {},
) {
  const jobs = new Map<string, { input: VideoJobInput; polls: number }>();
  const submits = new Map<string, number>();
  const provider: VideoProvider & { submits: Map<string, number>; jobs: typeof jobs } = {
    name: opts.name ?? 'fake',
    submits,
    jobs,
    async submit(input) {
      submits.set(input.prompt, (submits.get(input.prompt) ?? 0) + 1);
      const id = `job-${randomUUID()}`;
      jobs.set(id, { input, polls: 0 });
      return id;
    },
    async poll(id): Promise<VideoJobState> {
      const job = jobs.get(id);
      if (!job) return { state: 'failed', kind: 'provider', detail: 'unknown job' };
      job.polls += 1;
      if (job.polls < (opts.polls ?? 2))
        return { state: 'running', progress: job.polls / (opts.polls ?? 2) };
      const reason = opts.failFor?.(job.input.prompt) ?? null;
      return reason
        ? { state: 'failed', kind: 'provider', detail: reason }
        : { state: 'succeeded' };
    },
    async download(id, dest) {
      // The shape and length the job asked for (the worker's result check takes nothing else).
      const input = jobs.get(id)?.input;
      await writeFile(
        dest,
        input
          ? await shapedVideo({
              aspectRatio: input.options.aspectRatio,
              resolution: input.options.resolution,
              seconds: input.sourceVideo ? input.sourceVideo.durationSeconds + EXTEND_SECONDS : 8,
            })
          : await testVideo(),
      );
    },
    async cancel() {},
    requestIdOf: (id) => id,
  };
  return provider;
}

/**
 * The real worker on a test app's database and data folder: quick polls, no logs. Tests give
 * the providers and routes, and any option they exercise.
 */
export function testWorker(
  t: TestApp,
  opts: Pick<WorkerOptions, 'providers' | 'routes'> & Partial<WorkerOptions>,
) {
  return createVideoWorker({
    db: t.database.db,
    media: createVideoMedia(t.app.mediaStore, t.dataDir),
    log: { info() {}, warn() {}, error() {} },
    pollIntervalMs: 5,
    idleMs: 5,
    ...opts,
  });
}

/** The routes that send both modes to one provider (for workers built in tests). */
export const routesTo = (provider: string, model = 'test-model') => ({
  text: [{ provider, model }],
  image: [{ provider, model }],
});

/**
 * Runs a worker until no task is unfinished: steps each due task, and waits out the pauses
 * between a job's status checks (tests set them to a few milliseconds).
 */
export async function drainQueue(
  db: Db,
  worker: { processNext(): Promise<boolean> },
  timeoutMs = 20_000,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await worker.processNext()) continue;
    const open = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from video_tasks where status in ('pending', 'processing')`,
    );
    if ((open[0]?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('the video queue did not drain in time');
}
