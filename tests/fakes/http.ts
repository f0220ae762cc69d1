/** HTTP plumbing the fakes share: listening on a random local port, closing, JSON answers. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
