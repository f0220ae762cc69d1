/** The access log: one line per answered request, without query strings or credentials. */
import { hostname, tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../server/core/server.ts';
import { bearer, createTestApp, signInLocal, testConfig, type TestApp } from '../helpers/app.ts';
import { captureLogEntries } from '../helpers/logs.ts';

describe('access log', () => {
  let t: TestApp;
  const { stream, lines } = captureLogEntries();

  beforeAll(async () => {
    t = await createTestApp('pglite', { env: { LOG_LEVEL: 'info' }, deps: { logStream: stream } });
  });
  afterAll(() => t.close());

  it('writes one line per request when it is answered: method, path, status, time', async () => {
    const { token } = await signInLocal(t.app, 'log@example.com');
    lines.length = 0;
    await t.app.inject({
      url: '/api/credits/balance?secret=reset-token-123',
      headers: bearer(token),
    });
    await t.app.inject({ url: '/api/no-such-route' });
    const requests = lines.filter((l) => typeof l.req === 'object');
    expect(requests).toHaveLength(2);
    expect(requests.map((l) => l.msg)).toEqual(['request completed', 'request completed']);
    expect(requests[0]).toMatchObject({
      req: { method: 'GET', url: '/api/credits/balance' },
      res: { statusCode: 200 },
    });
    expect(requests[0]!.responseTime).toEqual(expect.any(Number));
    expect(requests[1]).toMatchObject({ res: { statusCode: 404 } });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('reset-token-123');
    expect(text).not.toContain(token);
  });

  it("writes the fields pino writes, in pino's order: level, time, pid, hostname, reqId first", async () => {
    lines.length = 0;
    await t.app.inject({ url: '/api/health/live?x="quoted"' });
    const [line] = lines.filter((l) => typeof l.req === 'object');
    expect(Object.keys(line!)).toEqual([
      'level',
      'time',
      'pid',
      'hostname',
      'reqId',
      'req',
      'res',
      'responseTime',
      'msg',
    ]);
    expect(line).toMatchObject({
      level: 30,
      pid: process.pid,
      hostname: hostname(),
      req: { method: 'GET', url: '/api/health/live' },
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(line!.reqId).toBe((line!.req as { id: string }).id);
    expect(Math.abs((line!.time as number) - Date.now())).toBeLessThan(60_000);
  });

  it('logs what a route writes through request.log with its request id, credentials redacted', async () => {
    const capture = captureLogEntries();
    const app = createServer(testConfig(tmpdir(), { LOG_LEVEL: 'info' }), capture.stream);
    app.get('/says', async (request) => {
      request.log.warn({ attempt: { token: 'secret-token-1' } }, 'route says');
      return { ok: true };
    });
    await app.inject({ url: '/says' });
    await app.close();
    const said = capture.lines.find((l) => l.msg === 'route says');
    const access = capture.lines.find((l) => l.msg === 'request completed');
    expect(said).toMatchObject({ level: 40, attempt: { token: '[redacted]' } });
    expect(said!.reqId).toBe(access!.reqId);
    expect(JSON.stringify(capture.lines)).not.toContain('secret-token-1');
  });
});
