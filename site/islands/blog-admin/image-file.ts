/**
 * Checks and compression for images the editor uploads (spec 5 "inline image upload",
 * 9 "Blog admin limits").
 */
import { MAX_UPLOAD_BYTES } from '../../../shared/blog.ts';
import { IMAGE_TYPE_MESSAGE, MEGABYTE } from '../../../shared/images.ts';

/** The upload limit in megabytes, as the hints and alerts write it (spec 9 "upload max"). */
export const MAX_UPLOAD_MB = MAX_UPLOAD_BYTES / MEGABYTE;
/** Spec 9: compression is offered above 2 MB or 1200x900, and targets 1200x900 at 0.85. */
const COMPRESS_OFFER_BYTES = 2 * 1024 * 1024;
const COMPRESS_MAX_WIDTH = 1200;
const COMPRESS_MAX_HEIGHT = 900;
const COMPRESS_QUALITY = 0.85;

/** Spec 5: the only types the editor takes. */
const ACCEPTED_IMAGE_TYPES = [
  'image/jpeg',
  'image/jpg',
  'image/png',
  'image/gif',
  'image/webp',
] as const;
export const ACCEPT_ATTRIBUTE = ACCEPTED_IMAGE_TYPES.join(',');

const INVALID_TYPE_MESSAGE = IMAGE_TYPE_MESSAGE;
export const LOAD_FAILED_MESSAGE = 'Failed to load image';
export const COMPRESSION_FAILED_MESSAGE = 'Image compression failed';

/** 12_998_000 → "12.4 MB". */
function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

function tooLargeMessage(bytes: number): string {
  return `Image size is ${formatFileSize(bytes)}. Please select an image smaller than ${MAX_UPLOAD_MB}MB.`;
}

/** Why a file cannot be uploaded (the alert to show), or null when it can. */
export function imageFileProblem(file: File): string | null {
  if (!(ACCEPTED_IMAGE_TYPES as readonly string[]).includes(file.type)) return INVALID_TYPE_MESSAGE;
  if (file.size > MAX_UPLOAD_BYTES) return tooLargeMessage(file.size);
  return null;
}

/** Decode a file into an element that knows its natural size; rejects when it is not an image. */
export function loadImage(file: Blob): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new Error(LOAD_FAILED_MESSAGE));
    };
    image.src = url;
  });
}

/** Spec 5: compression is offered above 2 MB, or wider than 1200, or taller than 900 px. */
export function shouldOfferCompression(file: File, width: number, height: number): boolean {
  return (
    file.size > COMPRESS_OFFER_BYTES || width > COMPRESS_MAX_WIDTH || height > COMPRESS_MAX_HEIGHT
  );
}

export function compressionQuestion(file: File, width: number, height: number): string {
  return (
    `This image is ${formatFileSize(file.size)} (${width}×${height} px). ` +
    `Compress it to at most ${COMPRESS_MAX_WIDTH}×${COMPRESS_MAX_HEIGHT} px before uploading? ` +
    'Choose Cancel to upload the original.'
  );
}

/** Scale to fit inside the target box, never up. */
function fitWithin(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, COMPRESS_MAX_WIDTH / width, COMPRESS_MAX_HEIGHT / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

function hasTransparency(
  context: CanvasRenderingContext2D,
  width: number,
  height: number,
): boolean {
  const { data } = context.getImageData(0, 0, width, height);
  for (let index = 3; index < data.length; index += 4) {
    if ((data[index] ?? 255) < 255) return true;
  }
  return false;
}

function canvasToBlob(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error(COMPRESSION_FAILED_MESSAGE))),
      type,
      quality,
    );
  });
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * Redraw in a canvas at most 1200x900 and re-encode at quality 0.85 (spec 9). Photos become
 * JPEG; an image with transparent pixels stays PNG (or WebP) so the transparency survives.
 * Answers the smaller of the result and the original, with a matching file name.
 */
export async function compressImage(
  file: File,
  image: HTMLImageElement,
): Promise<{ blob: Blob; name: string }> {
  const size = fitWithin(image.naturalWidth, image.naturalHeight);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  if (!context) throw new Error(COMPRESSION_FAILED_MESSAGE);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, size.width, size.height);

  const transparent =
    file.type !== 'image/jpeg' && file.type !== 'image/jpg'
      ? hasTransparency(context, size.width, size.height)
      : false;
  const type = !transparent
    ? 'image/jpeg'
    : file.type === 'image/webp'
      ? 'image/webp'
      : 'image/png';
  const blob = await canvasToBlob(canvas, type, COMPRESS_QUALITY);
  const resized = size.width !== image.naturalWidth || size.height !== image.naturalHeight;
  if (!resized && blob.size >= file.size) return { blob: file, name: file.name };

  const base = file.name.replace(/\.[^.]+$/, '') || 'image';
  return { blob, name: `${base}.${EXTENSIONS[blob.type] ?? EXTENSIONS[type]}` };
}
