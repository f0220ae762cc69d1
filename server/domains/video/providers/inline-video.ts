/** A video a provider hands back inline (base64 inside its JSON answer), written to a file. */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { VideoProviderError } from './errors.ts';

/**
 * Writes inline (base64) video bytes to `destPath`, beside it first, then renamed, unless they
 * are over `maxBytes` (the download cap, VIDEO_RESULT_MAX_BYTES).
 */
export async function writeInlineVideo(
  base64: string,
  destPath: string,
  maxBytes: number,
): Promise<void> {
  // Measured before decoding: 4 characters carry 3 bytes.
  if (Math.floor((base64.length * 3) / 4) > maxBytes + 2) {
    throw new VideoProviderError(`the inline video is over ${maxBytes} bytes`, {
      kind: 'rejected',
    });
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) {
    throw new VideoProviderError('the provider returned an empty video', { kind: 'gone' });
  }
  await mkdir(dirname(destPath), { recursive: true });
  const part = `${destPath}.${randomBytes(6).toString('hex')}.part`;
  try {
    await writeFile(part, bytes, { flag: 'wx' });
    await rename(part, destPath);
  } catch (err) {
    await rm(part, { force: true });
    throw err;
  }
}
