import { describe, expect, it } from 'vitest';
import { rateLimitKey } from '../../server/core/rate-limit-key.ts';

describe('rateLimitKey', () => {
  it.each([
    ['an IPv4 address', '203.0.113.5', '203.0.113.5'],
    ['an IPv4-mapped IPv6 address', '::ffff:203.0.113.5', '203.0.113.5'],
    ['an IPv4-mapped IPv6 address in hex', '::ffff:cb00:7105', '203.0.113.5'],
    ['an IPv6 address', '2001:db8:aa:1::1', '2001:db8:aa:1::/64'],
    ['another address of that /64', '2001:db8:aa:1:ffff:ffff:ffff:fffe', '2001:db8:aa:1::/64'],
    ['that /64 written in full', '2001:0DB8:00AA:0001:0000:0000:0000:0009', '2001:db8:aa:1::/64'],
    ['the next /64', '2001:db8:aa:2::1', '2001:db8:aa:2::/64'],
    ['IPv6 loopback', '::1', '::/64'],
    ['a link-local address with a zone', 'fe80::1%eth0', 'fe80::/64'],
    ['something that is not an address', 'Unknown', 'unknown'],
  ])('keys %s (%s) as %s', (_case, address, key) => {
    expect(rateLimitKey(address)).toBe(key);
  });
});
