/**
 * How every island reads a nanostore: hydrate with the store's initial value, which is what the
 * pre-rendered HTML shows, then go live. Another island may already have restored the session,
 * and hydrating with that would mismatch the server's HTML.
 */
import { useStore } from '@nanostores/react';
import type { ReadableAtom } from 'nanostores';

const HYDRATE = { ssr: 'initial' } as const;

/** The store's value, starting from its initial value while hydrating. */
export function useHydratedStore<T>(store: ReadableAtom<T>): T {
  return useStore(store, HYDRATE);
}
