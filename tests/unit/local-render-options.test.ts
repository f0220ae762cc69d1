/**
 * The local renderer's creative options (issue 35, item 6) against real ffmpeg: real 1080x1920 and
 * 1920x1080 frames, the seed changing the picture deterministically, the negative prompt as a
 * caption line, the fast tier's faster preset, the end frame the clip finishes on, reference
 * images in the frame, and an extension that is one clip of its source + 7 s with sound
 * throughout. Each render here is one the result check accepts for what was asked.
 */
import { execFile } from 'node:child_process';
import type * as ChildProcesses from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffprobe from '@ffprobe-installer/ffprobe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ffmpegPath,
  renderLocalVideo,
  type RenderRequest,
} from '../../server/domains/video/providers/local/renderer.ts';
import {
  captionLines,
  negativeCaptionLine,
  PORTRAIT_CAPTION,
} from '../../server/domains/video/providers/local/render/caption.ts';
import { renderGraph } from '../../server/domains/video/providers/local/render/compose.ts';
import { frameSize } from '../../shared/video-options.ts';
import { referenceSlots } from '../../server/domains/video/providers/local/render/layers.ts';
import { sceneFromPrompt } from '../../server/domains/video/providers/local/render/scene.ts';
import { checkVideo } from '../../server/domains/video/result-check.ts';

/** Every ffmpeg the renderer starts: its arguments and the caption files it read. */
const spawned = vi.hoisted(() => [] as { args: string[]; captions: string[] }[]);
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcesses>();
  const spawn = (command: string, args: string[], options: object) => {
    const graph = args[args.indexOf('-filter_complex') + 1] ?? '';
    // Caption files exist only while ffmpeg runs: read them now.
    const captions = [...graph.matchAll(/textfile=((?:\\.|[^:\\,;[\]])+)/g)].map((m) =>
      readFileSync(m[1]!.replace(/\\(.)/g, '$1').replace(/\\(.)/g, '$1'), 'utf8'),
    );
    spawned.push({ args, captions });
    return actual.spawn(command, args, options);
  };
  return { ...actual, spawn };
});

const run = promisify(execFile);
const TIMEOUT = 90_000;
const PROMPT = 'A paper boat drifting down a rain-soaked street';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'local-render-options-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function render(name: string, req: Partial<RenderRequest>) {
  const outputPath = path.join(dir, `${name}.mp4`);
  const posterPath = path.join(dir, `${name}.jpg`);
  const result = await renderLocalVideo({
    prompt: PROMPT,
    mode: 'text',
    outputPath,
    posterPath,
    ...req,
  });
  return { outputPath, posterPath, result, args: spawned.at(-1)!.args, spawn: spawned.at(-1)! };
}

async function probe(file: string) {
  // prettier-ignore
  const { stdout } = await run(ffprobe.path, [
    '-v', 'error', '-count_frames', '-show_format', '-show_streams', '-of', 'json', file,
  ]);
  return JSON.parse(stdout) as {
    format: { duration: string };
    streams: Record<string, string | number | undefined>[];
  };
}

/** Frame `index` of `file` as RGB bytes, scaled to w×h. */
async function frameAt(file: string, index: number, w: number, h: number) {
  // prettier-ignore
  const { stdout } = await run(ffmpegPath, [
    '-v', 'error', '-i', file, '-vf', `select=eq(n\\,${index}),scale=${w}:${h}`,
    '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-',
  ], { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 });
  expect(stdout.length).toBe(w * h * 3);
  return stdout;
}

function averageColour(rgb: Buffer) {
  const sum = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += 3) for (let c = 0; c < 3; c += 1) sum[c]! += rgb[i + c]!;
  const n = rgb.length / 3;
  return { r: sum[0]! / n, g: sum[1]! / n, b: sum[2]! / n };
}

/** A one-colour PNG made with ffmpeg. */
async function solidImage(name: string, colour: string, size: string) {
  const file = path.join(dir, `${name}.png`);
  await run(ffmpegPath, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `color=c=${colour}:s=${size}`,
    '-frames:v',
    '1',
    '-y',
    file,
  ]);
  return file;
}

/** Mean loudness (RMS of 16-bit mono) of each whole second of the soundtrack. */
async function loudnessPerSecond(file: string) {
  // prettier-ignore
  const { stdout } = await run(ffmpegPath, [
    '-v', 'error', '-i', file, '-map', '0:a', '-ac', '1', '-ar', '8000', '-f', 's16le', '-',
  ], { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 });
  const samples = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length / 2);
  return Array.from({ length: Math.floor(samples.length / 8000) }, (_, s) => {
    let sum = 0;
    for (let i = s * 8000; i < (s + 1) * 8000; i += 1) sum += (samples[i]! / 32768) ** 2;
    return Math.sqrt(sum / 8000);
  });
}

const videoOf = (info: Awaited<ReturnType<typeof probe>>) =>
  info.streams.find((s) => s.codec_type === 'video')!;
const audioOf = (info: Awaited<ReturnType<typeof probe>>) =>
  info.streams.find((s) => s.codec_type === 'audio')!;

describe('the seed', () => {
  const graphOf = (seed: number | null) =>
    renderGraph({
      scene: sceneFromPrompt(PROMPT, seed),
      frame: frameSize('16:9', '720p'),
      seconds: 8,
      picture: { mode: 'text' },
      captions: { lines: [], negative: null, fontFile: '/font.ttf' },
    });

  it('gives the same scene and graph for the same prompt and seed, another for another seed', () => {
    expect(sceneFromPrompt(PROMPT, 7)).toEqual(sceneFromPrompt(PROMPT, 7));
    expect(graphOf(7)).toBe(graphOf(7));
    expect(graphOf(8)).not.toBe(graphOf(7));
    expect(graphOf(0)).not.toBe(graphOf(null));
    expect(sceneFromPrompt(PROMPT, 7).palette).not.toEqual(sceneFromPrompt(PROMPT, 8).palette);
  });
});

describe('captions in other frames', () => {
  it('wraps a 9:16 caption into narrower lines, three at most', () => {
    const lines = captionLines('word '.repeat(60), PORTRAIT_CAPTION);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/…$/);
    expect(captionLines('A paper boat drifting down a street', PORTRAIT_CAPTION)).toHaveLength(2);
  });

  it('shows the negative prompt as one "without:" line, cut to fit, and nothing when blank', () => {
    expect(negativeCaptionLine('blurry, text')).toBe('without: blurry, text');
    expect(negativeCaptionLine('  \n ')).toBeNull();
    expect(negativeCaptionLine(null)).toBeNull();
    expect(negativeCaptionLine('blurry '.repeat(80))).toMatch(/^without: blurry .*…$/);
  });
});

describe('renderLocalVideo with options', () => {
  let portrait: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    portrait = await render('portrait', { options: { aspectRatio: '9:16', resolution: '1080p' } });
  }, TIMEOUT);

  it('renders 9:16 at 1080p as a real 1080x1920 8 s clip with its poster, one the check accepts', async () => {
    expect(portrait.result).toEqual({ durationSeconds: 8, width: 1080, height: 1920 });
    const info = await probe(portrait.outputPath);
    expect(Number(info.format.duration)).toBeCloseTo(8, 1);
    expect(videoOf(info)).toMatchObject({
      codec_name: 'h264',
      width: 1080,
      height: 1920,
      nb_read_frames: '192',
    });
    expect(audioOf(info)).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    expect(videoOf(await probe(portrait.posterPath))).toMatchObject({ width: 1080, height: 1920 });
    // The standard tier keeps the default preset.
    expect(portrait.args.join(' ')).toContain('-preset superfast');
    await expect(
      checkVideo(portrait.outputPath, { aspectRatio: '9:16', resolution: '1080p', seconds: 8 }),
    ).resolves.toMatchObject({ width: 1080, height: 1920 });
  });

  it(
    'changes the picture with the seed',
    async () => {
      const seeded = await render('seeded', {
        options: { aspectRatio: '9:16', resolution: '1080p', seed: 7 },
      });
      const [a, b] = await Promise.all(
        [portrait, seeded].map((r) => frameAt(r.outputPath, 40, 108, 192)),
      );
      const diff = a!.reduce((sum, v, i) => sum + Math.abs(v - b![i]!), 0) / a!.length;
      expect(diff).toBeGreaterThan(10);
    },
    TIMEOUT,
  );

  it(
    'renders 16:9 at 1080p (1920x1080) with the fast preset, the negative prompt line and reference thumbnails',
    async () => {
      const green = await solidImage('green', 'lime', '300x300');
      const magenta = await solidImage('magenta', 'magenta', '500x200');
      const out = await render('wide', {
        options: { resolution: '1080p', tier: 'fast', negativePrompt: 'blurry, watermark' },
        referenceImagePaths: [green, magenta],
      });
      expect(out.result).toEqual({ durationSeconds: 8, width: 1920, height: 1080 });
      expect(videoOf(await probe(out.outputPath))).toMatchObject({ width: 1920, height: 1080 });
      expect(out.args.join(' ')).toContain('-preset ultrafast');
      expect(out.spawn.captions).toContain('without: blurry, watermark');
      // Each thumbnail's centre shows its image, on frames from the first to the last.
      const frame = frameSize('16:9', '1080p');
      const slots = referenceSlots(2, frame);
      for (const index of [3, 100, 191]) {
        const rgb = await frameAt(out.outputPath, index, 1920, 1080);
        const at = (x: number, y: number) => [
          ...rgb.subarray((y * 1920 + x) * 3, (y * 1920 + x) * 3 + 3),
        ];
        const [g, m] = slots.map((s) =>
          at(s.x + s.border + s.thumb / 2, s.y + s.border + s.thumb / 2),
        );
        // Beat frames are flashed white: compare channels, not absolute values.
        expect(g![1]! - Math.max(g![0]!, g![2]!), `green at frame ${index}`).toBeGreaterThan(120);
        expect(Math.min(m![0]!, m![2]!) - m![1]!, `magenta at frame ${index}`).toBeGreaterThan(120);
      }
    },
    TIMEOUT,
  );
});

describe('renderLocalVideo with an end frame, then extended', () => {
  let ended: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    const red = await solidImage('red', 'red', '640x480');
    const blue = await solidImage('blue', 'blue', '600x900');
    ended = await render('ended', {
      mode: 'image',
      imagePath: red,
      lastFramePath: blue,
      options: { aspectRatio: '9:16' },
    });
  }, TIMEOUT);

  it('starts on the first image and finishes on the last one (9:16 720p: 720x1280)', async () => {
    expect(ended.result).toEqual({ durationSeconds: 8, width: 720, height: 1280 });
    const colourAt = async (index: number) =>
      averageColour(await frameAt(ended.outputPath, index, 72, 128));
    const [first, middle, last] = await Promise.all([3, 100, 191].map(colourAt));
    expect(first!.r).toBeGreaterThan(2 * Math.max(first!.g, first!.b));
    expect(middle!.r).toBeGreaterThan(2 * Math.max(middle!.g, middle!.b));
    expect(last!.b).toBeGreaterThan(2 * Math.max(last!.r, last!.g));
  });

  it(
    'extends a clip into one clip of its length + 7 s, the source first, with sound throughout',
    async () => {
      const before = spawned.length;
      const out = await render('extended', {
        prompt: 'the boat reaches the sea',
        sourceVideoPath: ended.outputPath,
        options: { aspectRatio: '9:16' },
      });
      // One look at the source, then one render.
      expect(spawned.length).toBe(before + 2);
      expect(out.result).toEqual({ durationSeconds: 15, width: 720, height: 1280 });
      const info = await probe(out.outputPath);
      expect(Number(info.format.duration)).toBeCloseTo(15, 1);
      expect(videoOf(info)).toMatchObject({
        width: 720,
        height: 1280,
        r_frame_rate: '24/1',
        nb_read_frames: '360',
      });
      expect(audioOf(info)).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
      expect(Number(audioOf(info).duration)).toBeCloseTo(15, 1);
      // Sound in every second: the source's, then the new part's.
      const loudness = await loudnessPerSecond(out.outputPath);
      expect(loudness).toHaveLength(15);
      for (const [second, rms] of loudness.entries()) {
        expect(rms, `second ${second}`).toBeGreaterThan(0.02);
      }
      // The source plays first (red, then its blue end frame), then the new part grows from it.
      const colourAt = async (index: number) =>
        averageColour(await frameAt(out.outputPath, index, 72, 128));
      const [start, sourceEnd, joined, later] = await Promise.all([3, 191, 193, 340].map(colourAt));
      expect(start!.r).toBeGreaterThan(2 * Math.max(start!.g, start!.b));
      expect(sourceEnd!.b).toBeGreaterThan(2 * Math.max(sourceEnd!.r, sourceEnd!.g));
      expect(joined!.b).toBeGreaterThan(1.5 * Math.max(joined!.r, joined!.g));
      expect(later!.b).toBeLessThan(1.5 * Math.max(later!.r, later!.g));
      await expect(
        checkVideo(out.outputPath, { aspectRatio: '9:16', resolution: '720p', seconds: 15 }),
      ).resolves.toMatchObject({ width: 720, height: 1280 });
    },
    TIMEOUT,
  );
});
