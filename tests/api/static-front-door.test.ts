/**
 * The front doors (issue 33, item 2): once a page is held in memory, the app's HTTP server
 * answers it before Fastify (core/server.ts, domains/site-build/static-site.ts), and so it answers
 * GET /api/health/live (core/health.ts). Over real
 * HTTP (inject never reaches the server), its answers must be the ones Fastify's route gives:
 * status, every header (security headers included, HSTS in production), bytes, a 304, one
 * access-log line, the timing; and what it must not answer still goes to Fastify.
 */
import http from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { PRODUCTION_ENV, testConfig } from '../helpers/app.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';
import { captureLogEntries } from '../helpers/logs.ts';
import { writeLiveRelease } from '../helpers/site-release.ts';

const page = `<!doctype html><title>Home</title>${'<p>Make an 8-second video with sound.</p>'.repeat(80)}`;
const script = `export const hello = (name) => "Hello, " + name;\n${'// padding\n'.repeat(300)}`;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(port: number, url: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<Answer>((resolve, reject) => {
    http
      .request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on('error', reject);
      })
      .on('error', reject)
      .end();
  });
}

const withoutDate = ({ date: _date, ...headers }: http.IncomingHttpHeaders) => headers;

describe.each([
  ['development', {}],
  ['production', { ...PRODUCTION_ENV, GOOGLE_CLIENT_ID: 'front-door.apps.googleusercontent.com' }],
] as const)('the static front door (%s)', (_name, env) => {
  let dataDir: string;
  let database: TestDatabase;
  let app: FastifyInstance;
  let port: number;
  const { stream, lines } = captureLogEntries<{ msg: string; reqId: string; req?: object }>();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'front-door-'));
    await writeLiveRelease(
      dataDir,
      { 'index.html': page, '404.html': page, '_astro/app.abc.js': script },
      { inlineScriptHashes: ['sha256-abc='] },
    );
    database = await createTestDatabase('pglite');
    const config = testConfig(dataDir, { ...env, SERVE_SITE: 'true', LOG_LEVEL: 'info' });
    app = await buildApp(config, { database, scheduler: false, logStream: stream });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    await database?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** The access-log lines of answered requests written since `from`. */
  const accessLines = (from: number) => lines.slice(from).filter((l) => l.req !== undefined);

  it("answers a held page with Fastify's answer: status, headers, bytes, one log line", async () => {
    for (const [url, headers] of [
      ['/', {}],
      ['/', { 'accept-encoding': 'br' }],
      ['/?utm_source=x', { 'accept-encoding': 'gzip' }],
      ['/_astro/app.abc.js', { 'accept-encoding': 'br' }],
    ] as const) {
      const first = await get(port, url, headers); // Fastify's route; the copy is now held
      const from = lines.length;
      const again = await get(port, url, headers);
      expect(again.status, url).toBe(first.status);
      expect(withoutDate(again.headers), url).toEqual(withoutDate(first.headers));
      expect(again.body.equals(first.body), url).toBe(true);
      // The door answered it: its own request ids, one line for the one request.
      const logged = accessLines(from);
      expect(logged, url).toHaveLength(1);
      expect(logged[0]!.reqId, url).toMatch(/^req-s/);
    }
    const home = await get(port, '/');
    expect(home.headers['content-security-policy']).toContain("'sha256-abc='");
    expect(home.headers['x-content-type-options']).toBe('nosniff');
    expect(home.headers['strict-transport-security'] !== undefined).toBe(_name === 'production');
  });

  it("answers If-None-Match with Fastify's 304", async () => {
    const { headers } = await get(port, '/', { 'accept-encoding': 'br' });
    const conditional = { 'accept-encoding': 'br', 'if-none-match': String(headers.etag) };
    const first = await get(port, '/', conditional);
    const again = await get(port, '/', conditional);
    expect(first.status).toBe(304);
    expect(again.status).toBe(304);
    expect(withoutDate(again.headers)).toEqual(withoutDate(first.headers));
    expect(again.body.length).toBe(0);
  });

  it('leaves to Fastify what it must not answer', async () => {
    await get(port, '/');
    const from = lines.length;
    // Identity headers without a session: core/auth.ts refuses them on every address.
    expect((await get(port, '/', { 'x-user-id': 'someone' })).status).toBe(403);
    // A NUL in the address: core/request-input.ts refuses it.
    expect((await get(port, '/?q=%00')).status).toBe(400);
    expect((await get(port, '/', {}, 'HEAD')).status).toBe(200);
    expect(accessLines(from).map((l) => l.reqId.startsWith('req-s'))).toEqual([
      false,
      false,
      false,
    ]);
  });

  it('answers GET /api/health/live as its route does, before Fastify', async () => {
    for (const url of ['/api/health/live', '/api/health/live?probe=1']) {
      const from = lines.length;
      const door = await get(port, url);
      const route = await app.inject({ url });
      expect(accessLines(from)[0]!.reqId, url).toMatch(/^req-l/);
      expect(door.status).toBe(route.statusCode);
      const { date: _date, connection: _c, 'keep-alive': _k, ...doorHeaders } = door.headers;
      const { date: _d2, connection: _c2, ...routeHeaders } = route.headers;
      expect(doorHeaders, url).toEqual(routeHeaders);
      // The same bytes, but for the uptime, which may have moved on by a second.
      const body = JSON.parse(door.body.toString());
      expect({ ...body, uptimeSeconds: 0 }).toEqual({ ...route.json(), uptimeSeconds: 0 });
      expect(Math.abs(body.uptimeSeconds - route.json().uptimeSeconds)).toBeLessThanOrEqual(1);
    }
    // Identity headers still go to Fastify, and are refused there.
    expect((await get(port, '/api/health/live', { 'x-user-id': 'someone' })).status).toBe(403);
  });

  it("times the door's answers under the route's pattern", async () => {
    const count = async () =>
      (await app.metrics.httpDuration.get()).values.find(
        (v) =>
          v.metricName === 'http_request_duration_seconds_count' &&
          v.labels.route === '/*' &&
          v.labels.method === 'GET' &&
          v.labels.status === '200',
      )?.value ?? 0;
    await get(port, '/');
    const before = await count();
    await get(port, '/');
    await get(port, '/');
    expect(await count()).toBe(before + 2);
  });
});
