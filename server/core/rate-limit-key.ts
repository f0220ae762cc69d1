/**
 * Whose budget a request draws on: its client address, with IPv6 clients grouped by /64 (issue
 * 34, finding 5). One IPv6 subscriber is handed a whole /64 (RFC 6177), so counting each of its
 * 2^64 addresses apart would give one client an unlimited budget. An IPv4-mapped IPv6 address
 * (::ffff:203.0.113.5, what a dual-stack socket reports for an IPv4 peer) is that IPv4 client.
 */
import ipaddr from 'ipaddr.js';

/** The bits of an IPv6 address that name one subscriber. */
const IPV6_CLIENT_PREFIX = 64;

/**
 * The rate-limit key of a client address: the IPv4 address itself, or the /64 prefix of an
 * IPv6 address ("2001:db8:1:2::/64"). Something that is not an address (a socket that closed
 * before its address was read) keeps its own key as it is.
 */
export function rateLimitKey(address: string): string {
  if (!ipaddr.isValid(address)) return address.toLowerCase();
  const ip = ipaddr.process(address);
  if (!(ip instanceof ipaddr.IPv6)) return ip.toString();
  // Sixteen bits a part: the first four parts are the /64 (a zone index, fe80::1%eth0, goes).
  const parts = ip.parts.map((part, i) => (i < IPV6_CLIENT_PREFIX / 16 ? part : 0));
  return `${new ipaddr.IPv6(parts).toString()}/${IPV6_CLIENT_PREFIX}`;
}
