/**
 * Finding 6 of issue 16: an 880 KB JSON body with 60,000 keys sent without a session was read
 * and parsed before the request was refused, and a flood of them slowed every other request.
 * Bodies are now limited to 64 KB by default, larger only on the routes that need it (articles)
 * and only for a signed-in caller; a route's guard runs before its body is read.
 */
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';

/** `{"email":…,"password":…,"k00000":"xyz",…}`: about 880 KB with 60,000 keys, as the review sent. */
function manyKeysBody(keys = 60_000): string {
  const entries = Array.from({ length: keys }, (_, i) => `"k${String(i).padStart(5, '0')}":"xyz"`);
  return `{"email":"ann@example.com","password":"correct horse",${entries.join(',')}}`;
}

/** An article whose content is `bytes` long (ASCII HTML). */
const article = (bytes: number) => ({
  title: `Long read ${Math.random().toString(36).slice(2)}`,
  content: `<p>${'a'.repeat(bytes)}</p>`,
  status: 'draft',
});

interface RawAnswer {
  status: number | null;
  body: string;
  ms: number;
}

/**
 * Sends `head` (request line and headers) and then only `body` on a fresh connection, and
 * returns the first answer: the server must answer from what it has, without the rest of a
 * body it was promised. `status` is null when nothing came back within `timeoutMs`.
 */
function rawRequest(port: number, head: string, body = '', timeoutMs = 3000): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const match = /^HTTP\/1\.1 (\d{3})/.exec(received);
      resolve({
        status: match ? Number(match[1]) : null,
        body: received.slice(received.indexOf('\r\n\r\n') + 4),
        ms: performance.now() - started,
      });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on('data', (chunk) => {
      received += chunk.toString();
      // One answer is enough: a JSON body ends with `}` (chunked or not).
      if (/\r\n\r\n[\s\S]*\}(\r\n0\r\n\r\n)?$/.test(received)) finish();
    });
    socket.on('error', finish);
    socket.write(head + body);
  });
}

describe('Large anonymous bodies', () => {
  describe.each(databaseKinds)('on %s', (kind) => {
    let t: TestApp;
    let port: number;
    /** `METHOD url` of each request whose body was parsed (it reached validation). */
    const parsed: string[] = [];
    const onRoute = (route: RouteOptions) => {
      const record = async (request: { method: string; url: string; body: unknown }) => {
        if (request.body !== undefined) parsed.push(`${request.method} ${request.url}`);
      };
      route.preValidation = [record, ...[route.preValidation ?? []].flat()];
    };

    beforeAll(async () => {
      t = await createTestApp(kind, {
        env: { BLOG_EDITORS: 'editor@example.com' },
        deps: { onRoute },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    afterAll(() => t.close());

    it('refuses an 880 KB body with 60,000 keys to POST /auth/signin with 413, unparsed', async () => {
      const payload = manyKeysBody();
      expect(payload.length).toBeGreaterThan(850_000);
      const res = await t.app.inject({
        method: 'POST',
        url: '/auth/signin',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toMatchObject({ success: false, code: 'BODY_TOO_LARGE' });
      expect(res.json().message).toMatch(/at most 64 KB/);
      expect(parsed.filter((p) => p.endsWith('/auth/signin'))).toEqual([]);
    });

    it('answers 413 from the headers alone: the promised body is never waited for', async () => {
      const answer = await rawRequest(
        port,
        'POST /auth/signin HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 900000\r\n\r\n',
        '{"email":"ann@example.com",',
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'BODY_TOO_LARGE' });
    });

    it('refuses a signed-out caller of a guarded route with 401 before reading the body', async () => {
      const answer = await rawRequest(
        port,
        'POST /api/blog/admin/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 5000000\r\n\r\n',
        '{"title":"',
      );
      expect(answer.status).toBe(401);
      expect(parsed.filter((p) => p.endsWith('/api/blog/admin/posts'))).toEqual([]);
    });

    it('refuses a signed-in caller over the default limit with 413 naming the limit', async () => {
      const ann = await signInLocal(t.app, 'big-body@example.com');
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/stripe/subscription/cancel',
        headers: { ...bearer(ann.token), 'content-type': 'application/json' },
        payload: JSON.stringify({ note: 'x'.repeat(100_000) }),
      });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({
        success: false,
        code: 'BODY_TOO_LARGE',
        message: expect.stringMatching(
          /^The request body is 98 KB; this address accepts at most 64 KB\. .+\.$/,
        ),
      });
    });

    it('lets an editor save a 1.5 MB article, and refuses one over the article limit', async () => {
      const editor = await signInLocal(t.app, 'editor@example.com', 'Ed');
      const save = (bytes: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/blog/admin/posts',
          headers: bearer(editor.token),
          payload: article(bytes),
        });
      const large = await save(1_500_000);
      expect(large.statusCode).toBe(200);
      const tooLarge = await save(6_200_000);
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json().message).toMatch(/at most 5\.8 MB/);
    });

    it('keeps the data API at 64 KB for callers without a session, larger for an editor', async () => {
      const payload = article(200_000);
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/db/posts', payload });
      expect(anonymous.statusCode).toBe(413);
      expect(anonymous.json().message).toMatch(/without a session.*64 KB.*Sign in/);
      expect(parsed.filter((p) => p.startsWith('POST /api/db/posts'))).toEqual([]);

      const editor = await signInLocal(t.app, 'editor@example.com', 'Ed');
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/api/db/posts',
        headers: bearer(editor.token),
        payload,
      });
      expect(signedIn.statusCode).toBe(200);
    });

    it('caps a chunked body without Content-Length the same way', async () => {
      const chunk = `{"title":"${'a'.repeat(70_000)}`;
      const parsedBefore = parsed.length;
      const answer = await rawRequest(
        port,
        'POST /api/db/posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Transfer-Encoding: chunked\r\n\r\n',
        `${chunk.length.toString(16)}\r\n${chunk}\r\n`,
      );
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).message).toMatch(/without a session/);
      expect(parsed.slice(parsedBefore)).toEqual([]);
    });
  });
});
