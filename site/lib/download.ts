/**
 * Saving a generated video to disk (spec 8 "Download"), shared by the generator and history, and
 * any file the page already holds (the account's data export).
 */
import type { Locale } from '../i18n/locales.ts';
import { download_failed } from '../i18n/messages.ts';

const MAX_NAME_LENGTH = 60;
const FALLBACK_NAME = 'ai-video';

/**
 * A safe `.mp4` file name from a prompt: letters and digits of any script, words joined by
 * hyphens, at most 60 characters, never empty.
 */
function videoFileName(prompt: string): string {
  const slug = prompt
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/-+$/, '');
  return `${slug || FALLBACK_NAME}.mp4`;
}

/**
 * Fetch the video as a blob and save it through an `<a download>` object URL, so the browser
 * saves the file instead of navigating to it. On failure, say so and open the video in a new tab,
 * where the browser's own menu can still save it (spec 8).
 */
export async function downloadVideo(
  url: string,
  prompt: string,
  locale: Locale = 'en',
): Promise<void> {
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`Video answered ${response.status}`);
    saveFile(await response.blob(), videoFileName(prompt));
  } catch (error) {
    console.error('[download] could not save the video', error);
    window.alert(download_failed(locale));
    window.open(url, '_blank', 'noopener');
  }
}

/** Saves bytes already in the page as a file, through an `<a download>` object URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = fileName;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the blob to the browser's download; free it once that has started.
  window.setTimeout(() => URL.revokeObjectURL(objectUrl), 30_000);
}
