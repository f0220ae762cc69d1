/** The single-use token a mailed link carries in its `token` query parameter. */
import { useSyncExternalStore } from 'react';
import { subscribeToUrl } from '../shared/url-state.ts';

function readLinkToken(): string | null {
  const token = new URLSearchParams(window.location.search).get('token')?.trim();
  return token ? token : null;
}

/** The link's token; null when the address has none, undefined while pre-rendering. */
export function useLinkToken(): string | null | undefined {
  return useSyncExternalStore(subscribeToUrl, readLinkToken, () => undefined);
}
