/**
 * Finding 1 of issue 34: a provider's answer named the address we downloaded its result from, and
 * we followed it anywhere (a redirect to 127.0.0.1 and on to /latest/meta-data/iam was fetched)
 * and wrote a 300 MB answer to disk in full before refusing it. Now every provider request goes
 * through the guarded fetcher (server/core/outbound.ts): public addresses only, each redirect
 * hop checked again (3 at most), the body stopped the moment it passes VIDEO_RESULT_MAX_BYTES;
 * tests reach their fakes only through OUTBOUND_ALLOW_HOSTS. The task fails and is refunded.
 */
import { readdir, stat } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFalFake } from '../fakes/fal/index.ts';
import type { FalFake } from '../fakes/fal/types.ts';
import { closeServer, listen } from '../fakes/http.ts';
import { bearer, createTestApp, creditBalance, signInLocal, type TestApp } from '../helpers/app.ts';
import { expectCreditsInvariant } from '../helpers/credits-invariant.ts';
import { databaseKinds } from '../helpers/database.ts';
import { drainQueue, grantCredits, requestGeneration, testWorker } from '../helpers/video.ts';

/** The cap the app runs with here (the smallest VIDEO_RESULT_MAX_BYTES allows). */
const CAP = 1024 * 1024;
/** What the huge answer offers: 300 MB. */
const HUGE = 300 * 1024 * 1024;

/** A server that counts what reaches it, and answers as `handle` says. */
async function countingServer(handle: (path: string, res: ServerResponse) => void) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    handle(req.url ?? '', res);
  });
  const { url } = await listen(server);
  return { url, seen, close: () => closeServer(server) };
}

/** Every file under `dir` with its size. */
async function filesUnder(dir: string): Promise<Array<{ file: string; size: number }>> {
  const out: Array<{ file: string; size: number }> = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push({ file, size: (await stat(file)).size });
  }
  return out;
}

describe.each(databaseKinds)('provider result addresses on %s', (kind) => {
  let fake: FalFake;
  let t: TestApp;
  let internal: Awaited<ReturnType<typeof countingServer>>;
  let redirector: Awaited<ReturnType<typeof countingServer>>;
  let huge: Awaited<ReturnType<typeof countingServer>> & { state: { sent: number } };
  let seq = 0;

  beforeAll(async () => {
    fake = await startFalFake();
    // An address inside our network: nothing may reach it on a provider's word.
    internal = await countingServer((url, res) => {
      if (url === '/redirect') {
        res.writeHead(302, { location: '/latest/meta-data/iam' }).end();
      } else res.writeHead(200, { 'content-type': 'text/plain' }).end('role-credentials');
    });
    // Allowed hosts (as a public CDN would be) that hand on to the internal one, or send 300 MB.
    redirector = await countingServer((_url, res) => {
      res.writeHead(302, { location: `${internal.url}/redirect` }).end();
    });
    const state = { sent: 0 };
    const hugeServer = await countingServer((_url, res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      const chunk = Buffer.alloc(64 * 1024, 1);
      const pump = () => {
        while (state.sent < HUGE) {
          state.sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
    });
    huge = { ...hugeServer, state };
    const allow = [
      fake.env.OUTBOUND_ALLOW_HOSTS,
      new URL(redirector.url).host,
      new URL(huge.url).host,
    ];
    t = await createTestApp(kind, {
      env: {
        ...fake.env,
        OUTBOUND_ALLOW_HOSTS: allow.join(','),
        VIDEO_ROUTE_TEXT: `fal:${fake.models.text}`,
        VIDEO_ROUTE_IMAGE: `fal:${fake.models.image}`,
        VIDEO_WORKER: 'off',
        VIDEO_RESULT_MAX_BYTES: String(CAP),
      },
    });
  }, 30_000);
  afterAll(async () => {
    await expectCreditsInvariant(t.database.db);
    await t?.close();
    await Promise.all([fake?.close(), internal?.close(), redirector?.close(), huge?.close()]);
  });
  beforeEach(() => {
    fake.resultUrl = null;
    internal.seen.length = 0;
  });

  /** One text task by a new customer with 17 credits, run to its end; its status and balance. */
  async function runTask() {
    const user = await signInLocal(t.app, `result-${kind}-${++seq}@example.com`);
    await grantCredits(t, user.user.id, 17);
    const res = await requestGeneration(t.app, user.token, {
      prompt: 'a quiet lake',
      model: 'veo3',
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.taskId as string;
    const worker = testWorker(t, {
      providers: t.app.videoProviders,
      routes: t.config.video.routes,
      breaker: { failures: 1000, openMs: 1000 },
    });
    await drainQueue(t.database.db, worker);
    const status = (
      await t.app.inject({ url: `/api/video/status/${id}`, headers: bearer(user.token) })
    ).json().data as { status: string };
    return { status: status.status, balance: await creditBalance(t.app, user.token) };
  }

  it('a result on an internal address is never fetched; the task fails and is refunded', async () => {
    fake.resultUrl = () => `${internal.url}/latest/meta-data/iam`;
    expect(await runTask()).toEqual({ status: 'failed', balance: 17 });
    expect(internal.seen).toEqual([]);
  });

  it('a redirect from an allowed host to an internal one is not followed', async () => {
    fake.resultUrl = () => `${redirector.url}/video.mp4`;
    expect(await runTask()).toEqual({ status: 'failed', balance: 17 });
    expect(redirector.seen.length).toBeGreaterThan(0);
    expect(internal.seen).toEqual([]);
  });

  it('a 300 MB answer is stopped at VIDEO_RESULT_MAX_BYTES and nothing of it is left on disk', async () => {
    fake.resultUrl = () => `${huge.url}/video.mp4`;
    expect(await runTask()).toEqual({ status: 'failed', balance: 17 });
    // The transfer stopped near the cap (socket buffers hold a few MB more), far from 300 MB.
    expect(huge.state.sent).toBeLessThan(CAP + 16 * 1024 * 1024);
    const large = (await filesUnder(t.dataDir)).filter((f) => f.size > CAP / 2);
    expect(large).toEqual([]);
  });

  it('the same provider still delivers a real result from its own CDN', async () => {
    expect(await runTask()).toEqual({ status: 'completed', balance: 0 });
  });
});
