/**
 * The check a provider's video passes before a task succeeds (issue 17, item 6): it is an MP4
 * (its first box is `ftyp`), decodes from start to end, lasts about 8 s, has an audio track, and
 * its video is a codec and a size a browser plays. One ffmpeg run (core/ffmpeg.ts: the system's
 * build where there is one; an argument list, never a shell) reads it with the MP4 demuxer forced
 * (`-f mov`: a playlist or any other format named .mp4 is not probed into something else) and
 * only the `file` protocol allowed (nothing it names is fetched or opened), and decodes every
 * frame of the first video and audio stream; `-xerror` stops it at the first decoding error
 * (issue 34, finding 2).
 */
import { spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { VIDEO_SECONDS } from '../../../shared/video.ts';
import { ffmpegForInputs } from '../../core/ffmpeg.ts';

/** A video that failed the check; `message` says why (for logs and the admin view). */
export class BadVideoError extends Error {
  override name = 'BadVideoError';
}

/** Accepted length: Veo's 8 s clips come out at 8.0 s; container rounding stays well inside. */
const MIN_SECONDS = VIDEO_SECONDS - 1;
const MAX_SECONDS = VIDEO_SECONDS + 1;

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

export async function checkVideo(file: string, signal?: AbortSignal): Promise<{ seconds: number }> {
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
  if (code !== 0) throw new BadVideoError(`the video does not decode: ${tail}`);
  const match = /Duration: (\d+):(\d+):(\d+(?:\.\d+)?)/.exec(stderr);
  if (!match) throw new BadVideoError('the video has no duration');
  const seconds = Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]);
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) {
    throw new BadVideoError(
      `the video lasts ${seconds.toFixed(2)} s, not about ${VIDEO_SECONDS} s`,
    );
  }
  return { seconds };
}
