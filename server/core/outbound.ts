/**
 * The one guarded fetcher for addresses someone else gave us (issue 34, finding 1): a provider's
 * result URL, its API answers, and later image URLs and webhook endpoints of users.
 *
 * - Only public unicast addresses (ipaddr.js's ranges: no loopback, private, link-local,
 *   carrier-grade NAT, multicast, reserved or unspecified address, IPv4 or IPv6, IPv4-mapped
 *   and NAT64 forms included). The check runs in the socket's own DNS lookup, on the addresses it
 *   then connects to, so a name that resolves to a public address for a check and to a private one
 *   for the connection (DNS rebinding) cannot slip past; literal addresses are checked before.
 * - No redirect is followed here: the caller follows them by hand (each hop comes back through
 *   this check) and decides which hop may carry its credentials.
 * - Bodies are read with a cap that stops the transfer the moment it is passed (`readCapped`,
 *   `pipeCapped`).
 *
 * Tests reach their fakes on loopback only through OUTBOUND_ALLOW_HOSTS (exact `host:port`
 * entries; never set in production), passed here as `allowHosts`.
 */
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Readable, Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import ipaddr from 'ipaddr.js';

/** What a guarded fetch may reach besides the public internet. */
export interface OutboundPolicy {
  /** `host:port` entries (lower case) that may be on any address: tests' fakes. */
  readonly allowHosts: ReadonlySet<string>;
}

/** No exceptions: public addresses only. */
export const PUBLIC_ONLY: OutboundPolicy = { allowHosts: new Set() };

/** JSON answers of provider APIs (a status or result document is a few KB). */
export const MAX_JSON_BYTES = 2 * 1024 * 1024;

/** A request refused before it left: the address is not a public one (or not http/https). */
export class OutboundRefusedError extends Error {
  override name = 'OutboundRefusedError';
  readonly code = 'EOUTBOUND_REFUSED';
}

/** A body larger than its cap; the transfer was stopped when the cap was passed. */
export class OutboundTooLargeError extends Error {
  override name = 'OutboundTooLargeError';
  readonly code = 'EOUTBOUND_TOO_LARGE';
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
    this.maxBytes = maxBytes;
  }
}

/**
 * OUTBOUND_ALLOW_HOSTS: comma-separated `host:port` entries. Throws, naming the entry, on one
 * that is not of that form (a bare host would allow every port of it).
 */
export function parseAllowHosts(value: string): Set<string> {
  const hosts = new Set<string>();
  for (const raw of value.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):(\d{1,5})$/.exec(entry);
    if (!match || Number(match[2]) > 65_535) {
      throw new Error(
        `OUTBOUND_ALLOW_HOSTS: "${raw.trim()}" is not host:port (e.g. 127.0.0.1:4010).`,
      );
    }
    hosts.add(entry);
  }
  return hosts;
}

/** Whether an address is a public unicast one (IPv4-mapped IPv6 judged as its IPv4 address). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  }
  return parsed.range() === 'unicast';
}

/** The URL's `host:port` with its default port filled in, as allow-list entries are written. */
function hostPort(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname.toLowerCase()}:${port}`;
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/** net.connect's `lookup`, refusing names that resolve to any address that is not public. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused || addresses.length === 0) {
      return callback(
        new OutboundRefusedError(`${hostname} resolves to ${refused?.address ?? 'nothing'}`),
        [],
      );
    }
    if (options.all) return callback(null, addresses);
    return callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}

/**
 * A fetch for addresses others gave us: the same call shape as `fetch` (so adapters and tests
 * keep one interface), with the address rules above and no redirects followed (a 3xx comes back
 * as it is, with its Location).
 */
export function guardedFetch(policy: OutboundPolicy = PUBLIC_ONLY): typeof fetch {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new OutboundRefusedError(`${url.protocol} addresses are not fetched`);
    }
    const allowed = policy.allowHosts.has(hostPort(url));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!allowed && net.isIP(host) !== 0 && !isPublicAddress(host)) {
      throw new OutboundRefusedError(`${host} is not a public address`);
    }
    const headers = new Headers(init.headers);
    const body =
      init.body == null ? null : Buffer.from(await new Response(init.body).arrayBuffer());
    if (body) headers.set('content-length', String(body.length));
    const request = (url.protocol === 'https:' ? https : http).request;
    return new Promise<Response>((resolve, reject) => {
      const req = request(url, {
        method: init.method ?? 'GET',
        headers: Object.fromEntries(headers),
        signal: init.signal ?? undefined,
        ...(allowed ? {} : { lookup: publicLookup }),
      });
      req.once('error', reject);
      req.once('response', (res) => {
        const status = res.statusCode ?? 0;
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const one of Array.isArray(value) ? value : [value ?? '']) {
            answerHeaders.append(name, one);
          }
        }
        const empty = status === 204 || status === 304 || init.method === 'HEAD';
        if (empty) res.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
            status,
            statusText: res.statusMessage ?? '',
            headers: answerHeaders,
          }),
        );
      });
      req.end(body ?? undefined);
    });
  };
}

/** An answer's body as bytes, at most `maxBytes` (the transfer is stopped once it is passed). */
export async function readCapped(res: Response, maxBytes: number): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await res.body?.cancel();
    throw new OutboundTooLargeError(maxBytes);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new OutboundTooLargeError(maxBytes);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

/** Streams an answer's body into `to`, stopping with OutboundTooLargeError past `maxBytes`. */
export async function pipeCapped(res: Response, to: Writable, maxBytes: number): Promise<void> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (!res.body) throw new Error('empty body');
  if (declared > maxBytes) {
    await res.body.cancel();
    throw new OutboundTooLargeError(maxBytes);
  }
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new OutboundTooLargeError(maxBytes));
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(res.body as WebReadableStream), cap, to);
}
