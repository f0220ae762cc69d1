/**
 * The result check against real MP4s (issue 35, item 6): a provider's video passes only when it
 * is the shape, resolution and length the task asked for — orientation and aspect ratio within a
 * few percent, a short side of at least 1080 pixels at 1080p, the length within a second (8 s, or
 * an extension's source + 7 s) — on top of the safety checks it always made (an MP4 read as one,
 * with sound, decodable, in a codec and a size a browser plays).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadVideoError,
  checkVideo,
  type ExpectedVideo,
} from '../../server/domains/video/result-check.ts';
import { testVideo } from '../fakes/video/test-video.ts';

const run = promisify(execFile);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'result-check-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

interface Clip {
  size: string;
  seconds?: number;
  /** Sample aspect ratio, e.g. '4/3' (anamorphic: 1440x1080 shown as 1920x1080). */
  sar?: string;
  /** Display rotation in the container (a phone's portrait clip stored landscape). */
  rotate?: number;
}

let made = 0;
/** A real H.264/AAC MP4: a plain picture at 2 fps (quick to make even at 1080x1920). */
async function clip({ size, seconds = 8, sar, rotate }: Clip): Promise<string> {
  const file = path.join(dir, `clip-${++made}.mp4`);
  const encoded = rotate === undefined ? file : `${file}.plain.mp4`;
  // prettier-ignore
  await run(ffmpeg.path, [
    '-v', 'error', '-y',
    '-f', 'lavfi', '-i', `color=c=teal:s=${size}:r=2:d=${seconds}`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
    ...(sar ? ['-vf', `setsar=${sar}`] : []),
    '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p',
    '-c:a', 'aac', '-shortest', encoded,
  ]);
  if (rotate !== undefined) {
    // prettier-ignore
    await run(ffmpeg.path, [
      '-v', 'error', '-y', '-i', encoded, '-c', 'copy',
      '-metadata:s:v:0', `rotate=${rotate}`, file,
    ]);
  }
  return file;
}

async function fakesVideo(opts: Parameters<typeof testVideo>[0] = {}): Promise<string> {
  const file = path.join(dir, `fake-${++made}.mp4`);
  await writeFile(file, await testVideo(opts));
  return file;
}

const ask = (
  aspectRatio: ExpectedVideo['aspectRatio'],
  resolution: ExpectedVideo['resolution'],
  seconds = 8,
): ExpectedVideo => ({ aspectRatio, resolution, seconds });

describe('checkVideo accepts what was asked for', () => {
  it.each<[string, () => Promise<string>, ExpectedVideo, { width: number; height: number }]>([
    [
      "the fakes' 16:9 720p clip (256x144)",
      () => fakesVideo(),
      ask('16:9', '720p'),
      { width: 256, height: 144 },
    ],
    [
      'a 1280x720 clip for 16:9 720p',
      () => clip({ size: '1280x720' }),
      ask('16:9', '720p'),
      { width: 1280, height: 720 },
    ],
    [
      'more than was asked: 1920x1080 for 16:9 720p',
      () => clip({ size: '1920x1080' }),
      ask('16:9', '720p'),
      { width: 1920, height: 1080 },
    ],
    [
      'a 1920x1080 clip for 16:9 1080p',
      () => clip({ size: '1920x1080' }),
      ask('16:9', '1080p'),
      { width: 1920, height: 1080 },
    ],
    [
      'an anamorphic 1440x1080 clip shown 16:9, for 16:9 1080p',
      () => clip({ size: '1440x1080', sar: '4/3' }),
      ask('16:9', '1080p'),
      { width: 1440, height: 1080 },
    ],
    [
      'a small portrait clip (144x256) for 9:16 720p',
      () => fakesVideo({ size: '144x256' }),
      ask('9:16', '720p'),
      { width: 144, height: 256 },
    ],
    [
      'a 720x1280 clip for 9:16 720p',
      () => clip({ size: '720x1280' }),
      ask('9:16', '720p'),
      { width: 720, height: 1280 },
    ],
    [
      'a 1080x1920 clip for 9:16 1080p',
      () => clip({ size: '1080x1920' }),
      ask('9:16', '1080p'),
      { width: 1080, height: 1920 },
    ],
    [
      'a 1920x1080 clip turned a quarter (shown 1080x1920), for 9:16 1080p',
      () => clip({ size: '1920x1080', rotate: 90 }),
      ask('9:16', '1080p'),
      { width: 1920, height: 1080 },
    ],
    [
      'a 1920x1088 clip (a few percent off 16:9) for 16:9 1080p',
      () => clip({ size: '1920x1088' }),
      ask('16:9', '1080p'),
      { width: 1920, height: 1088 },
    ],
  ])('%s', async (_name, make, expected, size) => {
    const result = await checkVideo(await make(), expected);
    expect(result).toMatchObject(size);
    expect(Math.abs(result.seconds - 8)).toBeLessThanOrEqual(0.1);
  });

  it.each([
    ['an extension of an 8 s clip: 15 s', 15, 15],
    ['15 s within a second of the 14.5 s asked', 15, 14.5],
    ['7.5 s within a second of 8 s', 7.5, 8],
  ])('%s', async (_name, seconds, asked) => {
    const file = await clip({ size: '256x144', seconds });
    const result = await checkVideo(file, ask('16:9', '720p', asked));
    expect(result.seconds).toBeCloseTo(seconds, 0);
  });
});

describe('checkVideo refuses what was not asked for', () => {
  it.each<[string, () => Promise<string>, ExpectedVideo, RegExp]>([
    [
      'a portrait clip for 16:9',
      () => fakesVideo({ size: '144x256' }),
      ask('16:9', '720p'),
      /portrait \(144x256\), not 16:9/,
    ],
    [
      'a landscape clip for 9:16',
      () => fakesVideo(),
      ask('9:16', '720p'),
      /landscape \(256x144\), not 9:16/,
    ],
    [
      'a landscape 1920x1080 clip for 9:16 1080p',
      () => clip({ size: '1920x1080' }),
      ask('9:16', '1080p'),
      /landscape/,
    ],
    ['a square clip for 16:9', () => clip({ size: '256x256' }), ask('16:9', '720p'), /square/],
    [
      'a 4:3 clip for 16:9',
      () => clip({ size: '320x240' }),
      ask('16:9', '720p'),
      /320x240, not 16:9/,
    ],
    [
      'a 9:19.5 phone clip for 9:16',
      () => clip({ size: '720x1560' }),
      ask('9:16', '720p'),
      /720x1560, not 9:16/,
    ],
    [
      'an anamorphic clip that stores 16:9 but shows 4:3',
      () => clip({ size: '1920x1080', sar: '3/4' }),
      ask('16:9', '1080p'),
      /not 16:9/,
    ],
    [
      'a clip turned a quarter (shown portrait) for 16:9',
      () => clip({ size: '1920x1080', rotate: 90 }),
      ask('16:9', '720p'),
      /portrait/,
    ],
    [
      '720p (1280x720) when 1080p was paid for',
      () => clip({ size: '1280x720' }),
      ask('16:9', '1080p'),
      /1280x720, less than the 1080p/,
    ],
    [
      '720x1280 when 9:16 1080p was paid for',
      () => clip({ size: '720x1280' }),
      ask('9:16', '1080p'),
      /less than the 1080p/,
    ],
    [
      "the fakes' 256x144 clip for 1080p",
      () => fakesVideo(),
      ask('16:9', '1080p'),
      /less than the 1080p/,
    ],
    [
      'an 8 s clip for an extension (15 s)',
      () => fakesVideo(),
      ask('16:9', '720p', 15),
      /lasts 8\.\d+ s, not about 15 s/,
    ],
    [
      'a 15 s clip for an 8 s task',
      () => clip({ size: '256x144', seconds: 15 }),
      ask('16:9', '720p'),
      /lasts 15\.\d+ s, not about 8 s/,
    ],
    [
      'a 6.5 s clip for an 8 s task',
      () => clip({ size: '256x144', seconds: 6.5 }),
      ask('16:9', '720p'),
      /not about 8 s/,
    ],
    [
      'a clip without sound',
      () => fakesVideo({ audio: false }),
      ask('16:9', '720p'),
      /no audio track/,
    ],
    [
      'an MPEG-TS stream named .mp4',
      () => fakesVideo({ format: 'mpegts' }),
      ask('16:9', '720p'),
      /not an MP4/,
    ],
    [
      'a picture below the smallest size',
      () => clip({ size: '128x72' }),
      ask('16:9', '720p'),
      /unexpected picture size 128x72/,
    ],
  ])('%s', async (_name, make, expected, reason) => {
    const file = await make();
    const checking = checkVideo(file, expected);
    await expect(checking).rejects.toBeInstanceOf(BadVideoError);
    await expect(checking).rejects.toThrow(reason);
  });

  it('refuses a video that does not decode to its end', async () => {
    // The 440 Hz tone and the picture, with the index first (+faststart), so a cut file still
    // opens: only decoding finds the missing frames.
    const bytes = await testVideo();
    expect(bytes.indexOf('moov')).toBeLessThan(bytes.indexOf('mdat'));
    const cut = path.join(dir, 'cut.mp4');
    await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    const checking = checkVideo(cut, ask('16:9', '720p'));
    await expect(checking).rejects.toBeInstanceOf(BadVideoError);
    await expect(checking).rejects.toThrow(/does not decode/);
  });
});
