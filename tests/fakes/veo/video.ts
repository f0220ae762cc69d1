/**
 * The test video the Veo fake's storage serves: a real 1-second MP4 made once per process with
 * @ffmpeg-installer/ffmpeg, or, if that binary is missing, a bare `ftyp` box.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

let videoOnce: Promise<{ video: Buffer; real: boolean }> | undefined;

/** Makes the test video once per process (about 12 KB: 1 s of 64x36 test pattern with a tone). */
export function testVideo(): Promise<{ video: Buffer; real: boolean }> {
  videoOnce ??= (async () => {
    let ffmpegPath: string;
    try {
      ffmpegPath = (await import('@ffmpeg-installer/ffmpeg')).default.path;
    } catch {
      return { video: placeholderMp4(), real: false };
    }
    const dir = await mkdtemp(join(tmpdir(), 'veo-fake-'));
    try {
      const out = join(dir, 'video.mp4');
      // prettier-ignore
      await promisify(execFile)(ffmpegPath, [
        '-hide_banner', '-loglevel', 'error', '-y',
        '-f', 'lavfi', '-i', 'testsrc=size=64x36:rate=8:duration=1',
        '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1',
        '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
        '-movflags', '+faststart', out,
      ]);
      return { video: await readFile(out), real: true };
    } catch {
      return { video: placeholderMp4(), real: false };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return videoOnce;
}

/** Just an `ftyp` box: enough to look like an MP4 to a sniffer, not to play. */
function placeholderMp4(): Buffer {
  const box = Buffer.alloc(24);
  box.writeUInt32BE(24, 0);
  box.write('ftypisom', 4, 'latin1');
  box.writeUInt32BE(0x200, 12);
  box.write('isomiso2', 16, 'latin1');
  return box;
}
