/**
 * The local renderer against real ffmpeg: the MP4s it writes are probed with ffprobe (a separate
 * npm-shipped binary) and decoded back to pixels and samples.
 */
import { execFile } from 'node:child_process';
import type * as ChildProcesses from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffprobe from '@ffprobe-installer/ffprobe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BEAT_FRAMES,
  DURATION_SECONDS,
  FPS,
  ffmpegPath,
  renderLocalVideo,
  SAMPLE_RATE,
} from '../../server/domains/video/providers/local/renderer.ts';
import type { RenderRequest } from '../../server/domains/video/providers/local/renderer.ts';
import {
  captionLines,
  sanitizeCaption,
} from '../../server/domains/video/providers/local/render/caption.ts';
import {
  escapeGraphText,
  escapeOptionValue,
} from '../../server/domains/video/providers/local/render/filtergraph.ts';

/** Every ffmpeg the renderer starts, with its arguments, caption files and stderr. */
const spawned = vi.hoisted(
  () => [] as { args: string[]; captions: string[]; stderr: string[]; child: ChildProcess }[],
);
vi.mock('node:child_process', async (importOriginal) => {
  const actual = await importOriginal<typeof ChildProcesses>();
  const spawn = (command: string, args: string[], options: object) => {
    const child = actual.spawn(command, args, options);
    const graph = args[args.indexOf('-filter_complex') + 1] ?? '';
    // Caption files exist only while ffmpeg runs: read them now.
    const captions = [...graph.matchAll(/textfile=((?:\\.|[^:\\,;[\]])+)/g)].map((m) =>
      readFileSync(m[1]!.replace(/\\(.)/g, '$1').replace(/\\(.)/g, '$1'), 'utf8'),
    );
    const record = { args, captions, stderr: [] as string[], child };
    child.stderr?.on('data', (chunk: Buffer | string) => record.stderr.push(String(chunk)));
    spawned.push(record);
    return child;
  };
  return { ...actual, spawn };
});

const run = promisify(execFile);
const TIMEOUT = 60_000;
const PROMPT = 'A lighthouse at dusk, waves crashing on black rocks';
const FRAME_BYTES = 1280 * 720 * 3;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'local-renderer-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function paths(name: string) {
  return { outputPath: path.join(dir, `${name}.mp4`), posterPath: path.join(dir, `${name}.jpg`) };
}

async function render(name: string, req: Partial<RenderRequest> = {}) {
  const files = paths(name);
  const progress: number[] = [];
  const started = performance.now();
  const result = await renderLocalVideo({
    prompt: PROMPT,
    mode: 'text',
    ...files,
    onProgress: (f) => progress.push(f),
    ...req,
  });
  return { ...files, result, progress, seconds: (performance.now() - started) / 1000 };
}

async function probe(file: string) {
  const { stdout } = await run(ffprobe.path, [
    '-v',
    'error',
    '-show_format',
    '-show_streams',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(stdout) as {
    format: { duration: string; format_name: string };
    streams: Record<string, string | number | undefined>[];
  };
}

/** Decodes video frames to raw bytes with the renderer's own ffmpeg. */
async function decodeFrames(file: string, filters: string[], pixFmt: string, frames?: number) {
  const { stdout } = await run(
    ffmpegPath,
    [
      '-v',
      'error',
      '-i',
      file,
      ...(filters.length ? ['-vf', filters.join(',')] : []),
      ...(frames ? ['-frames:v', String(frames)] : []),
      '-f',
      'rawvideo',
      '-pix_fmt',
      pixFmt,
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return stdout;
}

async function firstFrame(file: string) {
  const frame = await decodeFrames(file, [], 'rgb24', 1);
  expect(frame.length).toBe(FRAME_BYTES);
  return frame;
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

function averageColour(rgb: Buffer) {
  const sum = [0, 0, 0];
  for (let i = 0; i < rgb.length; i += 3) {
    sum[0]! += rgb[i]!;
    sum[1]! += rgb[i + 1]!;
    sum[2]! += rgb[i + 2]!;
  }
  const pixels = rgb.length / 3;
  return { r: sum[0]! / pixels, g: sum[1]! / pixels, b: sum[2]! / pixels };
}

async function solidImage(name: string, colour: string, size: string) {
  const file = path.join(dir, name);
  await run(
    ffmpegPath,
    ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}`].concat([
      '-frames:v',
      '1',
      '-y',
      file,
    ]),
  );
  return file;
}

describe('renderLocalVideo', () => {
  let base: Awaited<ReturnType<typeof render>>;
  beforeAll(async () => {
    base = await render('base');
    console.info(`local render (text mode) took ${base.seconds.toFixed(2)} s`);
  }, TIMEOUT);

  it('writes an 8 s 1280x720 24 fps H.264 + 48 kHz stereo AAC MP4 and a 1280x720 JPEG poster', async () => {
    expect(base.result).toEqual({ durationSeconds: 8, width: 1280, height: 720 });
    const info = await probe(base.outputPath);
    expect(info.format.format_name).toContain('mp4');
    expect(Number(info.format.duration)).toBeCloseTo(8, 1);
    expect(Math.abs(Number(info.format.duration) - 8)).toBeLessThanOrEqual(0.05);
    const video = info.streams.filter((s) => s.codec_type === 'video');
    const audio = info.streams.filter((s) => s.codec_type === 'audio');
    expect(info.streams).toHaveLength(2);
    expect(video).toHaveLength(1);
    expect(video[0]).toMatchObject({
      codec_name: 'h264',
      width: 1280,
      height: 720,
      pix_fmt: 'yuv420p',
      r_frame_rate: '24/1',
      nb_frames: '192',
    });
    expect(audio).toHaveLength(1);
    expect(audio[0]).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });

    const poster = await readFile(base.posterPath);
    expect([...poster.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const posterInfo = await probe(base.posterPath);
    expect(posterInfo.streams[0]).toMatchObject({ codec_name: 'mjpeg', width: 1280, height: 720 });
    // Moov before mdat (+faststart), so browsers can start playing before the whole file arrives.
    const mp4 = await readFile(base.outputPath);
    expect(mp4.indexOf('moov')).toBeLessThan(mp4.indexOf('mdat'));
    // Only the finished files remain: no .partial leftovers.
    expect((await readdir(dir)).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('reports ffmpeg progress as increasing fractions ending at exactly 1', () => {
    const { progress } = base;
    expect(progress.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < progress.length; i += 1) {
      expect(progress[i]!).toBeGreaterThan(progress[i - 1]!);
    }
    expect(progress[0]!).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.filter((f) => f === 1)).toHaveLength(1);
  });

  it(
    'renders the same prompt identically and a different prompt differently',
    async () => {
      const again = await render('same');
      const other = await render('other', { prompt: 'A red balloon drifting over green hills' });
      const [a, b, c] = await Promise.all(
        [base, again, other].map(async (r) => sha256(await firstFrame(r.outputPath))),
      );
      expect(b).toBe(a);
      expect(c).not.toBe(a);
      // The soundtrack is seeded from the prompt too: the same notes for the same prompt.
      const [sa, sb] = await Promise.all(
        [base, again].map(async (r) => sha256(await decodeAudio(r.outputPath))),
      );
      expect(sb).toBe(sa);
    },
    TIMEOUT,
  );

  it(
    'puts a beat every 12 frames (0.5 s) in both the soundtrack and the picture',
    async () => {
      expect(BEAT_FRAMES / FPS).toBe(0.5);
      const beats = Array.from({ length: (DURATION_SECONDS * FPS) / BEAT_FRAMES }, (_, k) => k);

      // Audio: energy per video frame's worth of samples (2000 at 48 kHz).
      const pcm = await decodeAudio(base.outputPath);
      const samples = new Int16Array(pcm.buffer, pcm.byteOffset, pcm.length / 2);
      const perFrame = SAMPLE_RATE / FPS;
      const energy = Array.from({ length: DURATION_SECONDS * FPS }, (_, f) => {
        let sum = 0;
        for (let i = f * perFrame; i < (f + 1) * perFrame && i < samples.length; i += 1) {
          sum += (samples[i]! / 32768) ** 2;
        }
        return sum / perFrame;
      });
      // Onsets: frames whose energy jumps well above the frame before.
      const onsets = energy
        .map((e, f) => ({ f, jump: e / Math.max(energy[f - 1] ?? 0, 1e-6) }))
        .filter(({ jump }) => jump > 4)
        .map(({ f }) => f);
      expect(onsets.length).toBe(beats.length);
      onsets.forEach((f, k) => expect(Math.abs(f - k * BEAT_FRAMES)).toBeLessThanOrEqual(1));
      for (const k of beats) {
        const window = energy.slice(k * BEAT_FRAMES, (k + 1) * BEAT_FRAMES);
        const peak = window.indexOf(Math.max(...window));
        expect(peak, `audio beat ${k}`).toBeLessThanOrEqual(1);
      }

      // Picture: the flash makes the beat frame the brightest around it.
      const grey = await decodeFrames(base.outputPath, ['scale=64:36', 'format=gray'], 'gray');
      const luma = Array.from({ length: grey.length / (64 * 36) }, (_, f) =>
        grey.subarray(f * 64 * 36, (f + 1) * 64 * 36).reduce((s, v) => s + v, 0),
      );
      expect(luma).toHaveLength(DURATION_SECONDS * FPS);
      for (const k of beats) {
        const from = Math.max(0, k * BEAT_FRAMES - 5);
        const window = luma.slice(from, k * BEAT_FRAMES + 6);
        const brightest = from + window.indexOf(Math.max(...window));
        expect(Math.abs(brightest - k * BEAT_FRAMES), `visual beat ${k}`).toBeLessThanOrEqual(1);
      }
    },
    TIMEOUT,
  );

  it(
    'animates the uploaded image in image mode (red image → red frames, blue → blue)',
    async () => {
      const red = await solidImage('red.png', 'red', '640x480');
      const blue = await solidImage('blue.jpg', 'blue', '600x900');
      const reds = await render('red', { mode: 'image', imagePath: red });
      const blues = await render('blue', { mode: 'image', imagePath: blue });
      const info = await probe(reds.outputPath);
      expect(Math.abs(Number(info.format.duration) - 8)).toBeLessThanOrEqual(0.05);
      expect(info.streams.map((s) => [s.codec_name, s.width ?? null])).toEqual([
        ['h264', 1280],
        ['aac', null],
      ]);
      const r = averageColour(await firstFrame(reds.outputPath));
      const b = averageColour(await firstFrame(blues.outputPath));
      const text = averageColour(await firstFrame(base.outputPath));
      expect(r.r).toBeGreaterThan(1.8 * Math.max(r.g, r.b));
      expect(b.b).toBeGreaterThan(1.8 * Math.max(b.r, b.g));
      expect(text.r).toBeLessThan(1.8 * Math.max(text.g, text.b));
    },
    TIMEOUT,
  );

  it(
    'draws a prompt full of drawtext metacharacters literally, never evaluating it',
    async () => {
      const prompt = "Cost: 100% {pts} %{pts} %{bogus} %{e:1/0} it's a \\ test\n[v];x,y 🦊 done";
      const before = spawned.length;
      const out = await render('meta', { prompt });
      expect(out.result.durationSeconds).toBe(8);
      const ffmpeg = spawned.at(-1)!;
      expect(spawned.length).toBe(before + 1);
      // The text reached drawtext only through files, and came back exactly as typed.
      expect(ffmpeg.captions.join(' ')).toBe(
        "Cost: 100% {pts} %{pts} %{bogus} %{e:1/0} it's a \\ test [v];x,y done",
      );
      // With expansion on, ffmpeg would have complained that %{bogus} is not known.
      expect(ffmpeg.stderr.join('')).toBe('');
      const graph = ffmpeg.args[ffmpeg.args.indexOf('-filter_complex') + 1]!;
      expect(graph).not.toContain('bogus');
      expect(graph.match(/drawtext=/g)?.length).toBe(graph.match(/expansion=none/g)?.length);
    },
    TIMEOUT,
  );

  it(
    'kills ffmpeg on abort, rejects with an AbortError and leaves no files',
    async () => {
      const controller = new AbortController();
      const files = paths('aborted');
      const rendering = renderLocalVideo({
        prompt: 'to be aborted',
        mode: 'text',
        ...files,
        signal: controller.signal,
        onProgress: () => controller.abort(),
      });
      await expect(rendering).rejects.toMatchObject({ name: 'AbortError' });
      const child = spawned.at(-1)!.child;
      expect(child.signalCode).toBe('SIGKILL');
      const left = await readdir(dir);
      expect(left.filter((f) => f.startsWith('aborted'))).toEqual([]);

      const already = AbortSignal.abort();
      await expect(
        renderLocalVideo({ prompt: 'x', mode: 'text', ...paths('never'), signal: already }),
      ).rejects.toMatchObject({ name: 'AbortError' });
    },
    TIMEOUT,
  );

  it(
    'stops and rejects with the error when the progress callback throws',
    async () => {
      const files = paths('callback');
      await expect(
        renderLocalVideo({
          prompt: 'x',
          mode: 'text',
          ...files,
          onProgress: () => {
            throw new Error('listener broke');
          },
        }),
      ).rejects.toThrow('listener broke');
      expect((await readdir(dir)).filter((f) => f.startsWith('callback'))).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "rejects with the tail of ffmpeg's stderr when ffmpeg fails, leaving no files",
    async () => {
      const notAnImage = path.join(dir, 'not-an-image.png');
      await writeFile(notAnImage, 'this is not an image');
      const files = paths('broken');
      await expect(
        renderLocalVideo({ prompt: 'x', mode: 'image', imagePath: notAnImage, ...files }),
      ).rejects.toThrow(/ffmpeg exited with code \d+: .*Invalid data/s);
      expect((await readdir(dir)).filter((f) => f.startsWith('broken'))).toEqual([]);
    },
    TIMEOUT,
  );
});

async function decodeAudio(file: string) {
  const { stdout } = await run(
    ffmpegPath,
    ['-v', 'error', '-i', file, '-map', '0:a', '-ac', '1', '-ar', String(SAMPLE_RATE)].concat([
      '-f',
      's16le',
      '-',
    ]),
    { encoding: 'buffer', maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout;
}

describe('captionLines', () => {
  it.each([
    ['keeps a short prompt on one line', 'A cat on a roof', ['A cat on a roof']],
    [
      'balances two lines',
      'A neon fox running through a rainy Tokyo street at night',
      ['A neon fox running through', 'a rainy Tokyo street at night'],
    ],
    ['turns newlines and tabs into spaces', 'one\ntwo\r\n\tthree', ['one two three']],
    ['drops emoji the font cannot draw', 'fox 🦊 and 👨‍👩‍👧 family ★', ['fox and family ★']],
    ['drops zero-width and bidi controls', 'a\u200Bb\u202Ec', ['abc']],
    ['keeps drawtext metacharacters as plain text', "%{pts} ' : \\", ["%{pts} ' : \\"]],
    ['shows nothing for a blank prompt', ' \n\t ', []],
  ])('%s', (_name, prompt, lines) => {
    expect(captionLines(prompt)).toEqual(lines);
  });

  it('cuts a long prompt to two lines ending in an ellipsis', () => {
    const lines = captionLines('word '.repeat(200));
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/…$/);
  });

  it('splits a word longer than a line', () => {
    const lines = captionLines('W'.repeat(80));
    expect(lines).toHaveLength(2);
    expect(lines.join('').replace('…', '')).toMatch(/^W+$/);
  });

  it('sanitizes to a single line', () => {
    expect(sanitizeCaption('a\nb')).toBe('a b');
  });
});

describe('filtergraph escaping', () => {
  it('escapes option separators and quotes, then graph separators', () => {
    expect(escapeOptionValue("C:\\it's")).toBe("C\\:\\\\it\\'s");
    expect(escapeGraphText('a,b;c[d]\\e')).toBe('a\\,b\\;c\\[d\\]\\\\e');
  });
});
