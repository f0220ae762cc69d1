/** Saving a generated video to disk (spec 8 "Download"), shared by the generator and history. */
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
  let objectUrl: string | null = null;
  try {
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`Video answered ${response.status}`);
    const blob = await response.blob();
    objectUrl = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = objectUrl;
    link.download = videoFileName(prompt);
    link.rel = 'noopener';
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } catch (error) {
    console.error('[download] could not save the video', error);
    window.alert(download_failed(locale));
    window.open(url, '_blank', 'noopener');
  } finally {
    // The click has handed the blob to the browser's download; free it once that has started.
    if (objectUrl) {
      const toRevoke = objectUrl;
      window.setTimeout(() => URL.revokeObjectURL(toRevoke), 30_000);
    }
  }
}
