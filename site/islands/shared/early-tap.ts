/**
 * Taps on controls that are on screen before their script is live (issue 33: no dead taps).
 *
 * Such a control is rendered with `aria-disabled="true"` and `data-early` (not `disabled`: a
 * disabled button hears no click). The layout's first inline script (BaseLayout) listens to
 * every click in the capture phase and, for a click on such a control, stops it and keeps the
 * control as `window.earlyTap` (the last one wins). When the control's island or script is live
 * it drops aria-disabled and calls `replayEarlyTap` with its root: the kept tap is clicked again,
 * now with a handler behind it.
 */

declare global {
  interface Window {
    /** The last control tapped before it was live (set by the layout's recorder). */
    earlyTap?: HTMLElement | null;
  }
}

/** Click again the control tapped before it was live, when it lies inside `root`. */
export function replayEarlyTap(root: Element | null): void {
  const control = window.earlyTap;
  if (!control || !root?.contains(control)) return;
  window.earlyTap = null;
  // Replaced meanwhile (the island rendered something else there): nothing to replay.
  if (control.isConnected && control.getAttribute('aria-disabled') !== 'true') control.click();
}
