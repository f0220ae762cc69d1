/**
 * Sample clips render in the background after the server starts; until a clip is ready its
 * poster is a placeholder and its video answers 503 (server/domains/site-build/samples-routes.ts).
 * Pressing play then would leave a broken player: instead the player gives way to a note.
 */

const NOTE = '[data-sample-pending]';

function showPending(video: HTMLVideoElement): void {
  const note = video.parentElement?.querySelector<HTMLElement>(NOTE);
  if (!note || !note.hidden) return;
  video.controls = false;
  video.removeAttribute('tabindex');
  note.hidden = false;
}

/** Watches every sample player under `root` (`<video data-sample-video>`) for a failed load. */
export function watchPendingSamples(root: ParentNode = document): void {
  for (const video of root.querySelectorAll<HTMLVideoElement>('video[data-sample-video]')) {
    const onError = () => showPending(video);
    // A `src` attribute fails on the video, a <source> child on the source element.
    video.addEventListener('error', onError);
    for (const source of video.querySelectorAll('source')) {
      source.addEventListener('error', onError);
    }
    // A failed load before this script ran. (Not networkState: NETWORK_NO_SOURCE is also the
    // passing state of every <source> video while the browser selects its resource.) With
    // preload="none" nothing loads before play, so this only guards a page changed later.
    if (video.error) onError();
  }
}
