/** HTTP plumbing the fakes share: listening on a random local port, closing, JSON answers. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OutboundPolicy } from '../../server/core/outbound.ts';

/** Listens on 127.0.0.1 with a random port; resolves the base URL and the port. */
export function listen(server: Server): Promise<{ url: string; port: number }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, port });
    });
  });
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    // Clients (fetch, the Stripe SDK's shared agent) keep connections alive; drop them so close()
    // returns at once instead of waiting for their timeout.
    server.closeAllConnections();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}

/** The whole request body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON answer as Google's APIs send it. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=UTF-8');
  res.end(JSON.stringify(body));
}

/**
 * Logs a request as it arrives in a fake's request log (its status filled in when answered),
 * with the fields the fake adds (which server, the credential it carried). Returns the parsed
 * URL, the entry, and a JSON `send` that records the status it answers.
 */
export function logRequest<E extends { method: string; path: string; status: number }>(
  log: E[],
  req: IncomingMessage,
  res: ServerResponse,
  extra: Omit<E, 'method' | 'path' | 'status'>,
): { url: URL; entry: E; send: (status: number, body: unknown) => void } {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const entry = {
    ...extra,
    method: req.method ?? 'GET',
    path: `${url.pathname}${url.search}`,
    status: 0,
  } as E;
  log.push(entry);
  const send = (status: number, body: unknown) => {
    entry.status = status;
    sendJson(res, status, body);
  };
  return { url, entry, send };
}

/** A request header as one string, or null. */
export const headerOf = (req: IncomingMessage, name: string): string | null => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : null;
};

/**
 * A fake's servers as the guarded fetcher's allow-list (server/core/outbound.ts): the only way a
 * test reaches a fake on loopback. `env` is OUTBOUND_ALLOW_HOSTS for an app or process; `policy`
 * goes to an adapter built directly.
 */
export function allowList(...urls: string[]): { env: string; policy: OutboundPolicy } {
  const hosts = urls.map((url) => new URL(url).host.toLowerCase());
  return { env: hosts.join(','), policy: { allowHosts: new Set(hosts) } };
}
