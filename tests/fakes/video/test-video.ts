/**
 * The test video the provider fakes serve: a real MP4 (64x36 test pattern with a 440 Hz tone,
 * H.264 + AAC) made once per length per process with @ffmpeg-installer/ffmpeg. 8 s by default,
 * which passes the worker's result check; other lengths (or `audio: false`) are for failing it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

const made = new Map<string, Promise<Buffer>>();

export function testVideo(opts: { seconds?: number; audio?: boolean } = {}): Promise<Buffer> {
  const seconds = opts.seconds ?? 8;
  const audio = opts.audio ?? true;
  const key = `${seconds}:${audio}`;
  let video = made.get(key);
  if (!video) {
    video = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'video-fake-'));
      try {
        const out = join(dir, 'video.mp4');
        // prettier-ignore
        await promisify(execFile)(ffmpeg.path, [
          '-hide_banner', '-loglevel', 'error', '-y',
          '-f', 'lavfi', '-i', `testsrc=size=64x36:rate=8:duration=${seconds}`,
          ...(audio ? ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`] : []),
          '-c:v', 'libx264', '-pix_fmt', 'yuv420p',
          ...(audio ? ['-c:a', 'aac', '-shortest'] : []),
          '-movflags', '+faststart', out,
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
