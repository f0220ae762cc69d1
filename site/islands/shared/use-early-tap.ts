/**
 * An island's side of early taps (see early-tap.ts): its controls stay marked not ready
 * (`aria-disabled`, `data-early`) in the server's HTML and while hydrating, and a tap made
 * meanwhile is replayed once the island is live and `ready` (its own condition, e.g. the stored
 * session is read).
 */
import { useLayoutEffect, useRef, useState } from 'react';
import { replayEarlyTap } from './early-tap.ts';

/** Props that mark a control not ready yet; spread them on every control `ref` covers. */
export function earlyProps(live: boolean) {
  return { 'aria-disabled': live ? undefined : true, 'data-early': '' } as const;
}

/**
 * `live`: hydrated and `ready`. `ref`: put it on the element holding the island's early controls;
 * a tap kept for one of them is replayed when `live` turns true.
 *
 * Layout effects, so the island goes live in the task that hydrates it (an update made in a
 * layout effect renders at once, before the browser paints) rather than a frame later; the tap is
 * replayed in a microtask, once React has finished that work.
 */
export function useEarlyTap<T extends HTMLElement>(ready = true) {
  // False in the server's HTML and while hydrating (the server's markup must match).
  const [hydrated, setHydrated] = useState(false);
  useLayoutEffect(() => setHydrated(true), []);
  const live = hydrated && ready;
  const ref = useRef<T>(null);
  useLayoutEffect(() => {
    if (live) queueMicrotask(() => replayEarlyTap(ref.current));
  }, [live]);
  return { live, ref };
}
