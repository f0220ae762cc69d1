/**
 * Uploaded images: recognised by their first bytes (never by name or declared type), limited in
 * size, and re-encoded with sharp so metadata (EXIF, GPS) and anything smuggled after the image
 * data is gone.
 */
import sharp from 'sharp';
import { IMAGE_TYPE_MESSAGE, MEGABYTE } from '../../shared/images.ts';
import { AppError, badRequest } from './errors.ts';

export type ImageType = 'jpeg' | 'png' | 'gif' | 'webp';

export function sniffImageType(bytes: Buffer): ImageType | null {
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
      `The image is larger than ${Math.round(maxBytes / MEGABYTE)}MB. Please choose a smaller image.`,
    );
  }
  const type = sniffImageType(bytes);
  if (!type) throw badRequest(IMAGE_TYPE_MESSAGE, 'IMAGE_TYPE');
  return type;
}

/**
 * Re-encodes an image in its own format (animated GIF/WebP kept animated), auto-rotated, at most
 * `maxSide` pixels, without metadata.
 */
export async function reencodeImage(
  bytes: Buffer,
  type: ImageType,
  maxSide = 2400,
): Promise<Buffer> {
  try {
    const animated = type === 'gif' || type === 'webp';
    let image = sharp(bytes, { animated, limitInputPixels: 40_000_000 })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true });
    image =
      type === 'jpeg'
        ? image.jpeg({ quality: 85, mozjpeg: true })
        : type === 'png'
          ? image.png()
          : type === 'gif'
            ? image.gif()
            : image.webp({ quality: 85 });
    return await image.toBuffer();
  } catch {
    throw badRequest(
      'The image could not be read. Please upload another JPEG, PNG, GIF or WebP image.',
      'IMAGE_UNREADABLE',
    );
  }
}
