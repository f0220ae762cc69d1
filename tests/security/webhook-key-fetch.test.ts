/**
 * Finding 4 of issue 34: with the providers' key endpoints answering 503, 4 header-less POSTs
 * caused 12 fetches of Replicate's secret (with our token) and 500s, and 5 forged fal webhooks 15
 * JWKS fetches: a failed fetch was not remembered and each was tried 3 times. fal's signed user id
 * was never compared with our account, and a delivery replayed within ±300 s was taken again.
 * Now: header-less or malformed requests are refused before any fetch; a key fetch is one attempt,
 * and its failure is remembered for 60 s (503 with Retry-After meanwhile, no call); fal deliveries
 * must name FAL_USER_ID; each delivery is taken once.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFalFake } from '../fakes/fal/index.ts';
import type { FalFake } from '../fakes/fal/types.ts';
import { closeServer, listen } from '../fakes/http.ts';
import { createTestApp, signInLocal, type TestApp } from '../helpers/app.ts';
import { databaseKinds } from '../helpers/database.ts';
import { grantCredits, requestGeneration, testWorker } from '../helpers/video.ts';

/** A key endpoint that is down: 503 to everything, each request counted. */
async function downServer() {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"detail":"down"}');
  });
  const { url } = await listen(server);
  return { url, host: new URL(url).host, seen, close: () => closeServer(server) };
}

const webhookBase = 'http://127.0.0.1:9';
const now = () => String(Math.floor(Date.now() / 1000));

describe.each(databaseKinds)('webhook keys while the key source is down, on %s', (kind) => {
  let down: Awaited<ReturnType<typeof downServer>>;
  let replicate: TestApp;
  let fal: TestApp;

  beforeAll(async () => {
    down = await downServer();
    replicate = await createTestApp(kind, {
      env: {
        REPLICATE_API_TOKEN: 'r8_test',
        REPLICATE_API_URL: `${down.url}/v1`,
        OUTBOUND_ALLOW_HOSTS: down.host,
        VIDEO_ROUTE_TEXT: 'replicate:google/veo-3.1',
        VIDEO_ROUTE_IMAGE: 'replicate:google/veo-3.1-fast',
        VIDEO_WEBHOOK_BASE: webhookBase,
        VIDEO_WORKER: 'off',
      },
    });
    fal = await createTestApp(kind, {
      env: {
        FAL_KEY: 'id:secret',
        FAL_USER_ID: 'user_ours',
        FAL_QUEUE_URL: down.url,
        FAL_JWKS_URL: `${down.url}/.well-known/jwks.json`,
        OUTBOUND_ALLOW_HOSTS: down.host,
        VIDEO_ROUTE_TEXT: 'fal:fal-ai/veo3.1',
        VIDEO_ROUTE_IMAGE: 'fal:fal-ai/veo3.1/image-to-video',
        VIDEO_WEBHOOK_BASE: webhookBase,
        VIDEO_WORKER: 'off',
      },
    });
  }, 30_000);
  afterAll(async () => {
    await replicate?.close();
    await fal?.close();
    await down?.close();
  });

  const post = (t: TestApp, provider: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `/api/video/webhooks/${provider}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify({ id: 'abc', request_id: 'abc' }),
    });

  it('Replicate: header-less POSTs fetch nothing; forged ones fetch the secret once, then 503', async () => {
    down.seen.length = 0;
    for (let i = 0; i < 4; i += 1)
      expect((await post(replicate, 'replicate', {})).statusCode).toBe(400);
    expect(down.seen).toEqual([]);
    for (let i = 0; i < 4; i += 1) {
      const res = await post(replicate, 'replicate', {
        'webhook-id': `msg_${randomBytes(8).toString('hex')}`,
        'webhook-timestamp': now(),
        'webhook-signature': `v1,${randomBytes(32).toString('base64')}`,
      });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().code).toBe('WEBHOOK_KEY_UNAVAILABLE');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(down.seen).toEqual(['/v1/webhooks/default/secret']);
  });

  it('fal: header-less POSTs and other accounts fetch nothing; forged ones fetch the JWKS once', async () => {
    down.seen.length = 0;
    for (let i = 0; i < 3; i += 1) expect((await post(fal, 'fal', {})).statusCode).toBe(400);
    const forged = (userId: string) => ({
      'x-fal-webhook-request-id': 'abc',
      'x-fal-webhook-user-id': userId,
      'x-fal-webhook-timestamp': now(),
      'x-fal-webhook-signature': randomBytes(64).toString('hex'),
    });
    expect((await post(fal, 'fal', forged('user_someone_else'))).statusCode).toBe(400);
    expect(down.seen).toEqual([]);
    for (let i = 0; i < 5; i += 1) {
      const res = await post(fal, 'fal', forged('user_ours'));
      expect(res.statusCode, res.body).toBe(503);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(down.seen).toEqual(['/.well-known/jwks.json']);
  });
});

describe.each(databaseKinds)('fal deliveries: our account only, each once, on %s', (kind) => {
  let fake: FalFake;
  let ours: TestApp;
  let stranger: TestApp;

  beforeAll(async () => {
    fake = await startFalFake();
    const routes = {
      VIDEO_ROUTE_TEXT: `fal:${fake.models.text}`,
      VIDEO_ROUTE_IMAGE: `fal:${fake.models.image}`,
      VIDEO_WEBHOOK_BASE: webhookBase,
      VIDEO_WORKER: 'off',
    };
    ours = await createTestApp(kind, { env: { ...fake.env, ...routes } });
    // The same fal key and keys, but configured as another fal account.
    stranger = await createTestApp(kind, {
      env: { ...fake.env, ...routes, FAL_USER_ID: 'user_someone_else' },
    });
  }, 30_000);
  afterAll(async () => {
    await ours?.close();
    await stranger?.close();
    await fake?.close();
  });

  it('a delivery signed by fal for another account is refused; ours is taken once', async () => {
    const user = await signInLocal(ours.app, `hook-${kind}@example.com`);
    await grantCredits(ours, user.user.id, 17);
    const res = await requestGeneration(ours.app, user.token, { prompt: 'a fox', model: 'veo3' });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().data.taskId as string;
    await testWorker(ours, {
      providers: ours.app.videoProviders,
      routes: ours.config.video.routes,
      webhookBase,
    }).processNext();
    const job = fake.jobs.find((j) => j.prompt === 'a fox')!;
    await ours.database.db.execute(
      sql`update video_tasks set run_after = now() + interval '1 hour' where id = ${id}`,
    );
    const hook = await fake.signedWebhook(job.requestId);
    const send = (t: TestApp) =>
      t.app.inject({
        method: 'POST',
        url: '/api/video/webhooks/fal',
        headers: hook.headers as Record<string, string>,
        payload: hook.rawBody,
      });
    const elsewhere = await send(stranger);
    expect(elsewhere.statusCode).toBe(400);
    const first = await send(ours);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, tasks: 1 });
    // The same delivery again (a replay inside fal's 300 s window): acknowledged, nothing moves.
    const again = await send(ours);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, tasks: 0, duplicate: true });
  });
});
