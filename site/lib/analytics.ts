/** Analytics: one entry point, so islands never touch `gtag` directly. */

declare global {
  interface Window {
    gtag?: (...args: unknown[]) => void;
  }
}

/** Report an analytics event (spec 7: login, purchase, generate_video, …). No-op without gtag. */
export function track(event: string, params: Record<string, unknown> = {}): void {
  if (typeof window === 'undefined' || typeof window.gtag !== 'function') return;
  try {
    window.gtag('event', event, params);
  } catch (error) {
    // A broken analytics script must never break the action that reported the event.
    console.error(`[analytics] could not send "${event}"`, error);
  }
}
