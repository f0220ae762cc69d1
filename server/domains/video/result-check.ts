/**
 * The check a provider's video passes before a task succeeds (issue 17, item 6): it is an MP4
 * (its first box is `ftyp`), decodes from start to end, has an audio track, its video is a codec
 * and a size a browser plays, and it is what was asked for (issue 35): the requested shape
 * (orientation and aspect ratio within ASPECT_TOLERANCE, as displayed), at 1080p a short side of
 * at least 1080 pixels (a provider that returns 720p for a 1080p order fails), and the requested
 * length within a second (8 s, or an extension's source plus EXTEND_SECONDS). One ffmpeg run (core/ffmpeg.ts: the system's
 * build where there is one; an argument list, never a shell) reads it with the MP4 demuxer forced
 * (`-f mov`: a playlist or any other format named .mp4 is not probed into something else) and
 * only the `file` protocol allowed (nothing it names is fetched or opened), and decodes every
 * frame of the first video and audio stream; `-xerror` stops it at the first decoding error
 * (issue 34, finding 2).
 */
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import type { AspectRatio, Resolution } from '../../../shared/video-options.ts';
import { ffmpegForInputs } from '../../core/ffmpeg.ts';

/** A video that failed the check; `message` says why (for logs and the admin view). */
export class BadVideoError extends Error {
  override name = 'BadVideoError';
}

/** What a task asked for: the video must have this shape, this resolution and this length. */
export interface ExpectedVideo {
  aspectRatio: AspectRatio;
  resolution: Resolution;
  /** 8 (VIDEO_SECONDS), or an extension's source length plus EXTEND_SECONDS. */
  seconds: number;
}

/** Accepted length: Veo's clips come out at their length; container rounding stays well inside. */
const SECONDS_TOLERANCE = 1;
/** Accepted aspect ratio: within 3% of the requested one (1920x1088 and the like pass). */
const ASPECT_TOLERANCE = 0.03;
/** The short side a 1080p video must have at least. */
const FULL_HD_SHORT_SIDE = 1080;

/** Video codecs browsers play from an MP4 (Veo's clips are H.264). */
const VIDEO_CODECS = new Set(['h264', 'hevc', 'av1', 'vp9']);
const AUDIO_CODECS = new Set(['aac', 'opus', 'mp3', 'ac3', 'eac3', 'alac', 'flac']);
/** Each side of the picture, in pixels: from a small vertical clip to 4K. */
const MIN_SIDE = 144;
const MAX_SIDE = 4096;

/** Whether the file starts with an ISO base media `ftyp` box (size, then the type). */
async function startsWithFtyp(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(12);
    const { bytesRead } = await handle.read(head, 0, 12, 0);
    return (
      bytesRead === 12 && head.toString('latin1', 4, 8) === 'ftyp' && head.readUInt32BE(0) >= 12
    );
  } finally {
    await handle.close();
  }
}

/** The picture as displayed: stored size stretched by its sample aspect ratio, turned by its rotation. */
function displayedSize(input: string, width: number, height: number) {
  const sar = /\[SAR (\d+):(\d+) DAR/.exec(input);
  const stretch =
    sar && Number(sar[1]) > 0 && Number(sar[2]) > 0 ? Number(sar[1]) / Number(sar[2]) : 1;
  const rotation = /rotation of (-?\d+(?:\.\d+)?) degrees/.exec(input);
  const quarterTurn = rotation ? Math.abs(Math.round(Number(rotation[1]) / 90)) % 2 === 1 : false;
  const [w, h] = [width * stretch, height];
  return quarterTurn ? { width: h, height: w } : { width: w, height: h };
}

/** Throws BadVideoError unless a w×h picture is the asked shape at the asked resolution. */
function checkShape(
  stored: { width: number; height: number },
  shown: { width: number; height: number },
  expected: ExpectedVideo,
): void {
  const { width, height } = shown;
  const portrait = expected.aspectRatio === '9:16';
  const size = `${stored.width}x${stored.height}`;
  if (portrait ? height <= width : width <= height) {
    const orientation = width === height ? 'square' : width > height ? 'landscape' : 'portrait';
    throw new BadVideoError(`the video is ${orientation} (${size}), not ${expected.aspectRatio}`);
  }
  const [w, h] = expected.aspectRatio.split(':').map(Number) as [number, number];
  if (Math.abs(width / height / (w / h) - 1) > ASPECT_TOLERANCE) {
    throw new BadVideoError(`the video is ${size}, not ${expected.aspectRatio}`);
  }
  if (
    expected.resolution === '1080p' &&
    Math.min(stored.width, stored.height) < FULL_HD_SHORT_SIDE
  ) {
    throw new BadVideoError(`the video is ${size}, less than the 1080p that was asked for`);
  }
}

/**
 * Checks the video at `file` is a playable MP4 with sound and is what `expected` asked for;
 * resolves with its length, or throws BadVideoError saying what is wrong.
 */
export async function checkVideo(
  file: string,
  expected: ExpectedVideo,
  signal?: AbortSignal,
): Promise<{ seconds: number; width: number; height: number }> {
  if (!(await startsWithFtyp(file)))
    throw new BadVideoError('the file is not an MP4 (no ftyp box)');
  // prettier-ignore
  const args = [
    '-hide_banner', '-nostats', '-nostdin', '-loglevel', 'info', '-xerror',
    '-protocol_whitelist', 'file', '-f', 'mov', '-i', `file:${file}`,
    '-map', '0:v:0', '-map', '0:a:0', '-f', 'null', '-',
  ];
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(ffmpegForInputs(), args, {
        stdio: ['ignore', 'ignore', 'pipe'],
        ...(signal ? { signal } : {}),
      });
      // Only the head (container facts) and the tail (errors) matter; memory stays flat.
      let head = '';
      let tail = '';
      child.stderr.on('data', (chunk: Buffer) => {
        if (head.length < 6000) head += chunk.toString();
        else tail = (tail + chunk.toString()).slice(-2000);
      });
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stderr: head + tail }));
    },
  );
  const tail = stderr.trim().split('\n').slice(-3).join(' | ');
  // The input's own lines (before "Output #0"): the first video and audio stream of each.
  const input = stderr.split(/^Output #0/m)[0] ?? '';
  const audio = /Stream #\d+:\d+[^:]*: Audio: (\w+)/.exec(input);
  if (!audio) throw new BadVideoError('the video has no audio track');
  const video = /Stream #\d+:\d+[^:]*: Video: (\w+)[^\n]*?, (\d{2,5})x(\d{2,5})/.exec(input);
  if (!video) throw new BadVideoError('the file has no video stream');
  if (!VIDEO_CODECS.has(video[1]!)) throw new BadVideoError(`unexpected video codec ${video[1]}`);
  if (!AUDIO_CODECS.has(audio[1]!)) throw new BadVideoError(`unexpected audio codec ${audio[1]}`);
  const [width, height] = [Number(video[2]), Number(video[3])];
  if (Math.min(width, height) < MIN_SIDE || Math.max(width, height) > MAX_SIDE) {
    throw new BadVideoError(`unexpected picture size ${width}x${height}`);
  }
  checkShape({ width, height }, displayedSize(input, width, height), expected);
  if (code !== 0) throw new BadVideoError(`the video does not decode: ${tail}`);
  const match = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!match) throw new BadVideoError('the video has no duration');
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  if (Math.abs(seconds - expected.seconds) > SECONDS_TOLERANCE) {
    throw new BadVideoError(
      `the video lasts ${seconds.toFixed(2)} s, not about ${expected.seconds} s`,
    );
  }
  return { seconds, width, height };
}
