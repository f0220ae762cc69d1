/**
 * The shape of the video a fake serves for a job (issue 35): the aspect ratio, resolution and
 * length the request asked for in the provider's own fields, so the worker's result check sees
 * what a real provider would send. A 720p picture is the real frame size over five (1280×720 →
 * 256×144: the right shape, and quick to encode); a 1080p one is full size, since the result
 * check wants a short side of 1080. The in-memory provider of tests/helpers/video.ts serves these
 * too. Also reads a served MP4's length and picture size back (its `mvhd` and `tkhd` boxes) for
 * tests and for fakes that extend a source video by its length.
 */
import { frameSize, type AspectRatio, type Resolution } from '../../../shared/video-options.ts';
import { testVideo } from './test-video.ts';

export interface FakeVideoShape {
  aspectRatio: AspectRatio;
  resolution: Resolution;
  seconds: number;
}

/** The spec's clip: what every fake served before options existed (`testVideo()`). */
export const DEFAULT_SHAPE: FakeVideoShape = {
  aspectRatio: '16:9',
  resolution: '720p',
  seconds: 8,
};

export function fakeVideoSize(shape: FakeVideoShape): { width: number; height: number } {
  const { width, height } = frameSize(shape.aspectRatio, shape.resolution);
  const scale = shape.resolution === '1080p' ? 1 : 5;
  return { width: width / scale, height: height / scale };
}

/** The test video in this shape. */
export function shapedVideo(shape: FakeVideoShape = DEFAULT_SHAPE): Promise<Buffer> {
  const { width, height } = fakeVideoSize(shape);
  return testVideo({ seconds: shape.seconds, size: `${width}x${height}` });
}

/** Where a box's type sits (its payload starts 4 bytes later), searching from `from`. */
const boxAt = (mp4: Buffer, type: string, from = 0) => mp4.indexOf(Buffer.from(type), from);

/** An MP4's length in seconds, from its movie header; null when it has none. */
export function mp4Seconds(mp4: Buffer): number | null {
  const at = boxAt(mp4, 'mvhd');
  if (at < 4 || at + 36 > mp4.length) return null;
  const v1 = mp4[at + 4] === 1;
  const timescale = v1 ? mp4.readUInt32BE(at + 24) : mp4.readUInt32BE(at + 16);
  const duration = v1 ? Number(mp4.readBigUInt64BE(at + 28)) : mp4.readUInt32BE(at + 20);
  return timescale > 0 ? duration / timescale : null;
}

/** An MP4's picture size, from the first track header with one (version 0 headers). */
export function mp4Size(mp4: Buffer): { width: number; height: number } | null {
  for (let at = boxAt(mp4, 'tkhd'); at >= 4; at = boxAt(mp4, 'tkhd', at + 4)) {
    if (at + 88 > mp4.length || mp4[at + 4] !== 0) continue;
    const width = mp4.readUInt32BE(at + 80) / 65536;
    const height = mp4.readUInt32BE(at + 84) / 65536;
    if (width > 0 && height > 0) return { width, height };
  }
  return null;
}
