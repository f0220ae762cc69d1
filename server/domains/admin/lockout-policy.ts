/**
 * Which failures lock the admin sign-in, and for whom (issue 16, finding 8). A lock keyed by the
 * username alone let anyone lock the operator out from everywhere with five wrong passwords, so:
 *
 * - each address (an IPv6 /64 counts as one: a host can rotate through its whole prefix) is
 *   locked after ADDRESS_LOCKOUT_FAILURES failures, whatever usernames it tried; the operator
 *   signs in from any other address meanwhile;
 * - each username is locked everywhere only after USERNAME_LOCKOUT_FAILURES failures from any
 *   addresses together: the ceiling on a guessing run spread over many addresses, which takes
 *   ten different networks within the window to reach.
 *
 * `GET /api/admin/status?password=` checks a password too (the admin's, unless
 * ADMIN_STATUS_PASSWORD is set), so it counts and honours the same locks.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** Failures in a row from one address that lock that address… */
export const ADDRESS_LOCKOUT_FAILURES = 5;
/** …failures in a row for one username, from all addresses together, that lock the username… */
export const USERNAME_LOCKOUT_FAILURES = 50;
/** …for this long; a run of failures also starts again after this long without one. */
export const LOCKOUT_MS = 15 * 60 * 1000;

/** A lockout counter and the failures in a row that lock it. */
export interface LockoutKey {
  key: string;
  max: number;
}

/** The key of the status password when it is not the admin's own. */
const STATUS_SECRET_KEY = 'secret:status';

/** The eight 16-bit groups of an IPv6 address, or null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const plain = address.split('%')[0]!;
  if (!isIPv6(plain)) return null;
  const parts = (text: string) => (text ? text.split(':') : []);
  const [head = '', tail] = plain.split('::');
  // An embedded IPv4 tail (::ffff:1.2.3.4) fills the last two groups.
  const words = (list: string[]) => list.flatMap((p) => (p.includes('.') ? ['0', '0'] : [p]));
  const before = words(parts(head));
  const after = tail === undefined ? [] : words(parts(tail));
  const zeros = new Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].map((group) => parseInt(group, 16));
}

/** The counter of the address a request came from: IPv4 as is, IPv6 by its /64. */
function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped && isIPv4(mapped)) return `ip:${mapped}`;
  const groups = ipv6Groups(ip);
  if (!groups) return `ip:${ip}`;
  return `ip6:${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The counters a sign-in attempt as `username` from `ip` is checked against and adds to. */
export function signInKeys(username: string, ip: string): LockoutKey[] {
  return [
    { key: addressKey(ip), max: ADDRESS_LOCKOUT_FAILURES },
    { key: `user:${username}`, max: USERNAME_LOCKOUT_FAILURES },
  ];
}

/**
 * The counters of a status-password attempt from `ip`. When the status password is the admin's
 * own, guessing it is guessing the admin's: it counts toward that username's limit.
 */
export function statusKeys(ip: string, adminUsername: string | null): LockoutKey[] {
  return [
    { key: addressKey(ip), max: ADDRESS_LOCKOUT_FAILURES },
    {
      key: adminUsername === null ? STATUS_SECRET_KEY : `user:${adminUsername}`,
      max: USERNAME_LOCKOUT_FAILURES,
    },
  ];
}
