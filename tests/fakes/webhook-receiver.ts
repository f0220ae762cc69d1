/**
 * A webhook receiver for tests: an HTTP server on 127.0.0.1 that records every request (method,
 * path, headers, raw body) and answers each with the status the test chose for it, so a test can
 * verify signatures on the exact bytes sent and drive retries, 410s and redirects.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { closeServer, listen } from './http.ts';

export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The body exactly as it arrived. */
  body: string;
  /** The status it was answered with. */
  status: number;
}

/** How to answer one request: a status, and optionally a body and headers. */
export interface ReceiverAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface WebhookReceiver {
  /** http://127.0.0.1:PORT */
  url: string;
  /** `127.0.0.1:PORT`, for OUTBOUND_ALLOW_HOSTS. */
  hostPort: string;
  received: ReceivedWebhook[];
  /** Decides each answer (default: 200 "ok"); replace it at any time. */
  answer: (request: Omit<ReceivedWebhook, 'status'>) => ReceiverAnswer;
  /** The requests whose path is `path`. */
  to(path: string): ReceivedWebhook[];
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver = {
    received,
    answer: (() => ({ status: 200, body: 'ok' })) as WebhookReceiver['answer'],
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      const answer = receiver.answer(request);
      received.push({ ...request, status: answer.status });
      res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    });
  });
  const { url, port } = await listen(server);
  return Object.assign(receiver, {
    url,
    hostPort: `127.0.0.1:${port}`,
    to: (path: string) => received.filter((r) => r.path === path),
    close: () => closeServer(server),
  });
}
