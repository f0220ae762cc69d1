/** The access log: one line per answered request, without query strings or credentials. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
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
});
