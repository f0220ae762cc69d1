/**
 * The small rules of /account/api (issue 36, site/islands/account-api/format.ts): which keys count
 * towards the limit of active keys, the state an endpoint shows, the threshold a field holds,
 * and dates in the page's language.
 */
import { describe, expect, it } from 'vitest';
import type { ApiKeyInfo, WebhookEndpointInfo } from '../../shared/public-api.ts';
import {
  activeKeyCount,
  endpointState,
  formatWhen,
  keyPreview,
  parseThreshold,
} from '../../site/islands/account-api/format.ts';

const key = (revoked_at: string | null): ApiKeyInfo => ({
  id: 'k',
  name: 'n',
  prefix: 'vs_live_AbC123',
  scopes: ['videos:read'],
  created_at: '2026-12-07T10:00:00.000Z',
  last_used_at: null,
  revoked_at,
});

const endpoint = (over: Partial<WebhookEndpointInfo>): WebhookEndpointInfo => ({
  id: 'e',
  url: 'https://example.com/hook',
  events: ['video.completed'],
  credits_low_threshold: 50,
  created_at: '2026-12-07T10:00:00.000Z',
  previous_secret_expires_at: null,
  failing_since: null,
  disabled_at: null,
  ...over,
});

describe('/account/api rules', () => {
  it('count only keys that are not revoked towards the limit', () => {
    expect(activeKeyCount([key(null), key('2026-12-07T11:00:00.000Z'), key(null)])).toBe(2);
    expect(activeKeyCount([])).toBe(0);
  });

  it('show a key by its prefix and an ellipsis', () => {
    expect(keyPreview('vs_live_AbC123')).toBe('vs_live_AbC123…');
  });

  it('call an endpoint disabled before failing, and active when neither', () => {
    const at = '2026-12-07T11:00:00.000Z';
    expect(endpointState(endpoint({}))).toBe('active');
    expect(endpointState(endpoint({ failing_since: at }))).toBe('failing');
    expect(endpointState(endpoint({ failing_since: at, disabled_at: at }))).toBe('disabled');
  });

  it('read a threshold as a whole number from 1, else null', () => {
    expect(parseThreshold(' 25 ')).toBe(25);
    expect(parseThreshold('1')).toBe(1);
    for (const bad of ['', '0', '-5', '2.5', '1e3', 'ten', '1234567890']) {
      expect(parseThreshold(bad), bad).toBeNull();
    }
  });

  it('write a date in the page language, and an unreadable one as it came', () => {
    const iso = '2026-12-07T14:05:00.000Z';
    expect(formatWhen(iso, 'en')).toMatch(/2026/);
    expect(formatWhen(iso, 'zh-CN')).toMatch(/2026年12月/);
    expect(formatWhen('not a date', 'en')).toBe('not a date');
  });
});
