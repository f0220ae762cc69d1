/**
 * The check a provider's video passes before a task succeeds (issue 17, item 6): it decodes from
 * start to end, lasts about 8 s, and has an audio track. One ffmpeg run (the bundled binary,
 * argument list, never a shell) reads the container's streams and decodes every frame of the
 * first video and audio stream; `-xerror` stops it at the first decoding error.
 */
import { spawn } from 'node:child_process';
import ffmpeg from '@ffmpeg-installer/ffmpeg';
import { VIDEO_SECONDS } from '../../../shared/video.ts';

/** A video that failed the check; `message` says why (for logs and the admin view). */
export class BadVideoError extends Error {
  override name = 'BadVideoError';
}

/** Accepted length: Veo's 8 s clips come out at 8.0 s; container rounding stays well inside. */
const MIN_SECONDS = VIDEO_SECONDS - 1;
const MAX_SECONDS = VIDEO_SECONDS + 1;

export async function checkVideo(file: string, signal?: AbortSignal): Promise<{ seconds: number }> {
  // prettier-ignore
  const args = [
    '-hide_banner', '-nostats', '-nostdin', '-loglevel', 'info', '-xerror',
    '-i', file, '-map', '0:v:0', '-map', '0:a:0', '-f', 'null', '-',
  ];
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(ffmpeg.path, args, {
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
  if (!/Stream #\d+:\d+[^:]*: Audio:/.test(stderr)) {
    throw new BadVideoError('the video has no audio track');
  }
  if (!/Stream #\d+:\d+[^:]*: Video:/.test(stderr)) {
    throw new BadVideoError('the file has no video stream');
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
