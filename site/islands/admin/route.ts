/**
 * Which dashboard view is open lives in the URL hash (`#tasks`, `#users/<id>`), so views are
 * plain links, the browser's Back button works, and a reload comes back to the same place.
 */
import { useSyncExternalStore } from 'react';

export const SECTIONS = [
  { id: 'overview', label: 'Overview' },
  { id: 'users', label: 'Users' },
  { id: 'tasks', label: 'Tasks' },
  { id: 'payments', label: 'Payments' },
  { id: 'webhooks', label: 'Webhook events' },
  { id: 'audit', label: 'Audit log' },
] as const;

export type Section = (typeof SECTIONS)[number]['id'];

export interface AdminRoute {
  section: Section;
  /** The user whose detail panel is open (Users only). */
  userId: string | null;
}

const SECTION_IDS = new Set<string>(SECTIONS.map((section) => section.id));

/** `#users/abc` → Users with abc open; anything unknown is the Overview. */
function parseRoute(hash: string): AdminRoute {
  const [head = '', ...rest] = hash.replace(/^#/, '').split('/');
  if (!SECTION_IDS.has(head)) return { section: 'overview', userId: null };
  const section = head as Section;
  const id = section === 'users' && rest[0] ? decodeURIComponent(rest[0]) : null;
  return { section, userId: id };
}

export function sectionHref(section: Section): string {
  return `#${section}`;
}

export function userHref(userId: string): string {
  return `#users/${encodeURIComponent(userId)}`;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
}

const readHash = () => window.location.hash;

/** The current route; the pre-rendered HTML (no window) is the Overview. */
export function useAdminRoute(): AdminRoute {
  const hash = useSyncExternalStore(subscribe, readHash, () => '');
  return parseRoute(hash);
}
