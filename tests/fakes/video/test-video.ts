/**
 * The test video the provider fakes serve: a real MP4 (256x144 test pattern with a 440 Hz tone,
 * H.264 + AAC) made once per kind per process with @ffmpeg-installer/ffmpeg. 8 s by default,
 * which passes the worker's result check; other lengths, `audio: false`, a picture too small
 * (`size`) or another container (`format: 'mpegts'`) are for failing it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

const made = new Map<string, Promise<Buffer>>();

export function testVideo(
  opts: { seconds?: number; audio?: boolean; size?: string; format?: 'mp4' | 'mpegts' } = {},
): Promise<Buffer> {
  const seconds = opts.seconds ?? 8;
  const audio = opts.audio ?? true;
  const size = opts.size ?? '256x144';
  const format = opts.format ?? 'mp4';
  const key = `${seconds}:${audio}:${size}:${format}`;
  let video = made.get(key);
  if (!video) {
    video = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'video-fake-'));
      try {
        const out = join(dir, format === 'mp4' ? 'video.mp4' : 'video.ts');
        // prettier-ignore
        await promisify(execFile)(ffmpeg.path, [
          '-hide_banner', '-loglevel', 'error', '-y',
          '-f', 'lavfi', '-i', `testsrc=size=${size}:rate=8:duration=${seconds}`,
          ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
          '-c:v', 'libx264', '-pix_fmt', 'yuv420p',
          ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
          ...(format === 'mp4' ? ['-movflags', '+faststart'] : ['-f', 'mpegts']), out,
        ]);
        return await readFile(out);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    })();
    made.set(key, video);
  }
  return video;
}
