/**
 * Uploaded images: recognised by their first bytes (never by name or declared type), limited in
 * size and in pixels, and re-encoded with sharp so metadata (EXIF, GPS) and anything smuggled
 * after the image data is gone. Decoding is the expensive part (a 40-megapixel PNG takes over
 * 100 MB while it is decoded), so decodes across the process take turns (finding 13 of issue 16).
 * sharp (libvips) is imported by the first decode, not at start-up (issue 33).
 */
import { availableParallelism } from 'node:os';
import { MEGABYTE } from '../../shared/images.ts';
import { AppError, badRequest } from './errors.ts';
import { msg } from './api-messages.ts';

/**
 * Largest image decoded, in pixels: 48-megapixel phone photos (8064×6048) pass; more is a
 * camera raw export or a decompression bomb, and costs hundreds of MB to decode.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Answered when every decode slot and queue place is taken; the client may retry. */
class ImagesBusyError extends AppError {
  /** Sent as Retry-After (server/core/server.ts). */
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number) {
    super(503, 'IMAGES_BUSY', msg('images.busy'));
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export interface DecodeLimiter {
  readonly limits: { concurrency: number; queue: number };
  /** Runs `work` when a slot is free; refuses at once (503) when the queue is full as well. */
  run<T>(work: () => Promise<T>): Promise<T>;
  stats(): { active: number; queued: number };
}

/** At most `concurrency` decodes at once, `queue` more waiting in order, the rest refused. */
function createDecodeLimiter(limits: {
  concurrency: number;
  queue: number;
  retryAfterSeconds: number;
}): DecodeLimiter {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    limits: { concurrency: limits.concurrency, queue: limits.queue },
    async run(work) {
      if (active < limits.concurrency) active += 1;
      else if (waiting.length < limits.queue) {
        // The slot passes straight from the finishing decode to this one.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else throw new ImagesBusyError(limits.retryAfterSeconds);
      try {
        return await work();
      } finally {
        release();
      }
    },
    stats: () => ({ active, queued: waiting.length }),
  };
}

/**
 * The process's decodes: one per core (libvips spreads each over the cores too), four per core
 * waiting. A waiting upload holds its bytes (at most 10 MB), so the queue bounds that memory.
 */
export const imageDecodes = createDecodeLimiter({
  concurrency: availableParallelism(),
  queue: 4 * availableParallelism(),
  retryAfterSeconds: 5,
});

export type ImageType = 'jpeg' | 'png' | 'gif' | 'webp';

function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff)
    return 'jpeg';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  if (
    bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
    bytes.subarray(8, 12).toString('latin1') === 'WEBP'
  )
    return 'webp';
  return null;
}

/** Checks bytes and size; answers 400/413 with a message a person can act on. */
export function checkImage(bytes: Buffer, maxBytes: number): ImageType {
  if (bytes.length > maxBytes) {
    throw new AppError(
      413,
      'IMAGE_TOO_LARGE',
      msg('images.too_large', { megabytes: Math.round(maxBytes / MEGABYTE) }),
    );
  }
  const type = sniffImageType(bytes);
  if (!type) throw badRequest(msg('images.invalid_type'), 'IMAGE_TYPE');
  return type;
}

const unreadable = () => badRequest(msg('images.unreadable'), 'IMAGE_UNREADABLE');

/** Refuses an image whose header declares more than MAX_INPUT_PIXELS, before any decode. */
async function checkPixels(bytes: Buffer, animated: boolean): Promise<void> {
  const { default: sharp } = await import('sharp');
  let width: number | undefined;
  let height: number | undefined;
  try {
    // Reads the header only; with `animated` the height is that of every frame together.
    ({ width, height } = await sharp(bytes, { animated, limitInputPixels: false }).metadata());
  } catch {
    throw unreadable();
  }
  if (!width || !height) throw unreadable();
  if (width * height > MAX_INPUT_PIXELS) {
    const megapixels = Math.round((width * height) / 1_000_000);
    throw new AppError(
      413,
      'IMAGE_TOO_MANY_PIXELS',
      msg('images.too_many_pixels', {
        width,
        height,
        megapixels,
        max: MAX_INPUT_PIXELS / 1_000_000,
      }),
    );
  }
}

/**
 * Re-encodes an image auto-rotated, at most `maxSide` pixels, without metadata: in its own format
 * (animated GIF/WebP kept animated), or as a PNG of its first frame with `as: 'png'`. Waits for a
 * decode slot; answers 413 over the pixel limit and 503 when too many images are waiting.
 */
export async function reencodeImage(
  bytes: Buffer,
  type: ImageType,
  options: { maxSide?: number; as?: 'png' } = {},
): Promise<Buffer> {
  const { maxSide = 2400, as } = options;
  const animated = !as && (type === 'gif' || type === 'webp');
  return imageDecodes.run(async () => {
    await checkPixels(bytes, animated);
    const { default: sharp } = await import('sharp');
    try {
      let image = sharp(bytes, { animated, limitInputPixels: MAX_INPUT_PIXELS })
        .rotate()
        .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
      const format = as ?? type;
      image =
        format === 'jpeg'
          ? image.jpeg({ quality: 85, mozjpeg: true })
          : format === 'png'
            ? image.png()
            : format === 'gif'
              ? image.gif()
              : image.webp({ quality: 85 });
      return await image.toBuffer();
    } catch {
      throw unreadable();
    }
  });
}
