/**
 * The local provider's own rules (the renderer itself is tests/unit/local-renderer.test.ts and
 * local-render-options.test.ts): a prompt matching LOCAL_RENDER_FAIL_PATTERN fails at once as a
 * provider failure (it never takes a render slot, so it never waits in the local queue), a job
 * whose files are gone is failed (not an error the worker would retry until the deadline), job ids
 * are checked before any path is built from them, and a job's options and every file it came with
 * are kept in its folder, so a worker that restarts renders the same video again (issue 35).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OPTIONS, type VideoOptions } from '../../shared/video-options.ts';
import {
  createLocalVideoProvider,
  renderRequestOf,
} from '../../server/domains/video/providers/local/adapter.ts';
import { local } from '../../server/domains/video/providers/local/index.ts';
import { unsupportedOption } from '../../server/domains/video/providers/capabilities.ts';
import type { VideoJobInput } from '../../server/domains/video/providers/types.ts';
import { checkVideo } from '../../server/domains/video/result-check.ts';
import { testVideo } from '../fakes/video/test-video.ts';
import { pngImage } from '../helpers/video.ts';

const job = (over: Partial<VideoJobInput> = {}): VideoJobInput => ({
  prompt: 'a prompt',
  mode: 'text',
  model: 'local',
  options: DEFAULT_OPTIONS,
  taskId: 'task',
  deadlineAt: new Date(Date.now() + 60_000),
  ...over,
});
const withOptions = (options: Partial<VideoOptions>) => ({ ...DEFAULT_OPTIONS, ...options });

describe('local video provider', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'local-provider-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('fails a prompt matching the fail pattern at once, as a provider failure', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir, failPattern: /^FAIL:/, renders: 1 });
    const id = await provider.submit(job({ prompt: 'FAIL: on purpose' }));
    expect(provider.requestIdOf(id)).toBe(id);
    expect(await provider.poll(id)).toMatchObject({
      state: 'failed',
      kind: 'provider',
      detail: expect.stringContaining('LOCAL_RENDER_FAIL_PATTERN'),
    });
  });

  it('fails a job whose files are gone (a worker killed before writing them) instead of erroring', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir });
    const lost = 'local-00000000-0000-4000-8000-000000000000';
    expect(await provider.poll(lost)).toEqual({
      state: 'failed',
      kind: 'provider',
      detail: `the local job ${lost} was lost`,
    });
  });

  it('refuses a job id that is not its own before touching the disk', async () => {
    const provider = createLocalVideoProvider({ jobsDir: dir });
    await expect(provider.poll('../../etc')).rejects.toThrow(/not a local job id/);
  });

  it('says it can do every option, at every shape, resolution and tier', () => {
    const caps = local.modelCapabilities('local');
    const every = [
      withOptions({ aspectRatio: '9:16', resolution: '1080p', tier: 'fast', seed: 1 }),
      withOptions({ negativePrompt: 'blur', referenceImages: 3, aspectRatio: '9:16' }),
      withOptions({ referenceImages: 3, resolution: '1080p', tier: 'fast' }),
      withOptions({ lastFrame: true, aspectRatio: '9:16', resolution: '1080p' }),
      withOptions({ extend: true, resolution: '1080p', tier: 'fast' }),
      withOptions({ extend: true, aspectRatio: '9:16' }),
    ];
    for (const options of every) {
      for (const mode of ['text', 'image'] as const) {
        expect(unsupportedOption(caps, mode, options), JSON.stringify(options)).toBeNull();
      }
    }
    expect(caps.referenceImages?.max).toBe(3);
  });

  it.each([
    ['an end frame option without its image', job({ options: withOptions({ lastFrame: true }) })],
    [
      'fewer reference images than the option says',
      job({ options: withOptions({ referenceImages: 2 }), referenceImages: [] }),
    ],
    ['an extension without the video to extend', job({ options: withOptions({ extend: true }) })],
    ['image mode without its image', job({ mode: 'image' })],
  ])('refuses %s as rejected, saving nothing', async (_name, input) => {
    const jobs = path.join(dir, `refused-${Math.random().toString(36).slice(2)}`);
    const provider = createLocalVideoProvider({ jobsDir: jobs });
    await expect(provider.submit(input)).rejects.toMatchObject({ kind: 'rejected' });
    await expect(readdir(jobs)).rejects.toThrow();
  });

  it('keeps the options, the first and end frames, the references and the source video in the job folder', async () => {
    const jobs = path.join(dir, 'saved');
    // The pattern fails every job at once: nothing renders, the folders stay to be read.
    const provider = createLocalVideoProvider({ jobsDir: jobs, failPattern: /./ });
    const [first, end, ref1, ref2] = await Promise.all(
      [10, 20, 30, 40].map((r) => pngImage(32, 32, { r, g: 0, b: 0 })),
    );
    const source = await testVideo();
    const options = withOptions({
      aspectRatio: '9:16',
      resolution: '1080p',
      tier: 'fast',
      negativePrompt: 'blur',
      seed: 4_294_967_295,
      lastFrame: true,
    });
    const imageJob = await provider.submit(
      job({
        mode: 'image',
        image: { data: first!, mimeType: 'image/png' },
        lastFrame: { data: end!, mimeType: 'image/png' },
        options,
      }),
    );
    const refOptions = withOptions({ referenceImages: 2 });
    const textJob = await provider.submit(
      job({
        options: refOptions,
        referenceImages: [ref1!, ref2!].map((data) => ({ data, mimeType: 'image/png' })),
      }),
    );
    const extendJob = await provider.submit(
      job({
        options: withOptions({ extend: true }),
        sourceVideo: { data: source, mimeType: 'video/mp4', durationSeconds: 8 },
      }),
    );
    for (const id of [imageJob, textJob, extendJob]) expect(id).toMatch(/^local-[0-9a-f-]{36}$/);
    const read = (id: string, name: string) => readFile(path.join(jobs, id, name));
    expect(JSON.parse((await read(imageJob, 'input.json')).toString())).toEqual({
      prompt: 'a prompt',
      mode: 'image',
      options,
    });
    expect((await read(imageJob, 'image')).equals(first!)).toBe(true);
    expect((await read(imageJob, 'last-frame')).equals(end!)).toBe(true);
    expect(JSON.parse((await read(textJob, 'input.json')).toString())).toMatchObject({
      options: refOptions,
    });
    expect((await read(textJob, 'reference-0')).equals(ref1!)).toBe(true);
    expect((await read(textJob, 'reference-1')).equals(ref2!)).toBe(true);
    expect((await read(extendJob, 'source.mp4')).equals(source)).toBe(true);
  });

  it('renders a job again with its options and files after the worker restarts', async () => {
    const jobs = path.join(dir, 'restart');
    const before = createLocalVideoProvider({ jobsDir: jobs, failPattern: /./ });
    const id = await before.submit(
      job({
        options: withOptions({ extend: true, seed: 3 }),
        sourceVideo: { data: await testVideo(), mimeType: 'video/mp4', durationSeconds: 8 },
      }),
    );
    // A new process: the job is not running here and has no output, so it starts again.
    const after = createLocalVideoProvider({ jobsDir: jobs });
    let state = await after.poll(id);
    const until = Date.now() + 60_000;
    while (state.state !== 'succeeded' && state.state !== 'failed' && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = await after.poll(id);
    }
    expect(state).toEqual({ state: 'succeeded' });
    const dest = path.join(dir, 'restarted.mp4');
    await after.download(id, dest);
    // The 8 s source and 7 s more, in the 16:9 720p frame.
    await expect(
      checkVideo(dest, { aspectRatio: '16:9', resolution: '720p', seconds: 15 }),
    ).resolves.toMatchObject({ width: 1280, height: 720 });
    await expect(readdir(path.join(jobs, id))).rejects.toThrow();
  }, 90_000);

  it('renders a job saved before options existed as the spec clip, and each saved file by its option', () => {
    const legacy = renderRequestOf({ prompt: 'p', mode: 'image' }, '/jobs/x');
    expect(legacy).toEqual({
      prompt: 'p',
      mode: 'image',
      options: {
        aspectRatio: '16:9',
        resolution: '720p',
        tier: 'standard',
        negativePrompt: null,
        seed: null,
      },
      imagePath: '/jobs/x/image',
    });
    const options = withOptions({
      aspectRatio: '9:16',
      seed: 9,
      lastFrame: true,
      referenceImages: 2,
      extend: true,
    });
    expect(renderRequestOf({ prompt: 'p', mode: 'text', options }, '/jobs/y')).toEqual({
      prompt: 'p',
      mode: 'text',
      options: {
        aspectRatio: '9:16',
        resolution: '720p',
        tier: 'standard',
        negativePrompt: null,
        seed: 9,
      },
      lastFramePath: '/jobs/y/last-frame',
      referenceImagePaths: ['/jobs/y/reference-0', '/jobs/y/reference-1'],
      sourceVideoPath: '/jobs/y/source.mp4',
    });
  });
});
