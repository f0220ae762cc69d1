/**
 * The address as island state (the generator's `?type=`, the history's `?page=`): islands read
 * it with useSyncExternalStore(subscribeToUrl, …). pushState and replaceState fire no event, so
 * changes go through `setUrl`, which tells the subscribers; back and forward arrive as popstate.
 */

const listeners = new Set<() => void>();

export function subscribeToUrl(onChange: () => void): () => void {
  listeners.add(onChange);
  window.addEventListener('popstate', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('popstate', onChange);
  };
}

/** Change the address without loading a page: a new history entry (`push`) or in place. */
export function setUrl(href: string, how: 'push' | 'replace'): void {
  if (how === 'push') window.history.pushState(window.history.state, '', href);
  else window.history.replaceState(window.history.state, '', href);
  for (const listener of listeners) listener();
}
