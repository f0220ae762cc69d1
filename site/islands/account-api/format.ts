/**
 * The small rules of /account/api (issue 36), apart from the components so they can be tested
 * alone: how a date reads, which keys count towards the limit, what state an endpoint is in, and
 * what a threshold field holds.
 */
import type { ApiKeyInfo, WebhookEndpointInfo } from '../../../shared/public-api.ts';
import { INTL_LOCALES, type Locale } from '../../i18n/locales.ts';

/** A moment in the page's language, day and time: "Dec 7, 2026, 2:05 PM", "2026年12月7日 14:05". */
export function formatWhen(iso: string, locale: Locale): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString(INTL_LOCALES[locale], { dateStyle: 'medium', timeStyle: 'short' });
}

/** Keys that still work: the ones the limit of active keys counts. */
export const activeKeyCount = (keys: readonly ApiKeyInfo[]): number =>
  keys.filter((key) => key.revoked_at === null).length;

/** How a stored prefix is shown: the part of the key it is, followed by an ellipsis. */
export const keyPreview = (prefix: string): string => `${prefix}…`;

export type EndpointState = 'active' | 'failing' | 'disabled';

/** Disabled outranks failing: a disabled endpoint is no longer sent anything. */
export function endpointState(endpoint: WebhookEndpointInfo): EndpointState {
  if (endpoint.disabled_at) return 'disabled';
  if (endpoint.failing_since) return 'failing';
  return 'active';
}

/**
 * A credit threshold as typed: a whole number from 1 up (digits only, spaces around allowed),
 * else null.
 */
export function parseThreshold(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,9}$/.test(trimmed)) return null;
  const value = Number(trimmed);
  return value >= 1 ? value : null;
}
