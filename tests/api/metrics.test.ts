/**
 * GET /metrics (item 6 of issue 18): the bearer METRICS_TOKEN guard, the Prometheus text, and
 * each metric observed where it happens: requests by route pattern, the queue read from the
 * database, tasks finishing in a worker, webhooks, credits granted and spent (counted once their
 * transaction commits) and site builds.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics, serveMetrics, videoTaskMetrics } from '../../server/core/metrics.ts';
import { MANIFEST, siteDirs } from '../../server/domains/site-build/release.ts';
import {
  createSiteBuilder,
  type SiteBuilderOptions,
} from '../../server/domains/site-build/service.ts';
import { siteBuildMetrics } from '../../server/core/metrics.ts';
import { startServer } from '../../server/main.ts';
import {
  bearer,
  createTestApp,
  creditBalance,
  signInAdmin,
  signInLocal,
  testConfig,
  type TestApp,
} from '../helpers/app.ts';
import { openLocalCheckoutForm, requestCheckout, submitLocalCheckout } from '../helpers/billing.ts';
import { databaseKinds } from '../helpers/database.ts';
import {
  drainQueue,
  fakeProvider,
  grantCredits,
  requestGeneration,
  routesTo,
  testWorker,
} from '../helpers/video.ts';

/** A port nothing listens on (the kernel's pick, released again). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

const TOKEN = 'metrics-token-for-tests-0123456789';
const WEBHOOK_KEY = Buffer.from('metrics-test-webhook-key-0123456');

/** A delivery signed as Replicate signs them (Standard Webhooks), about no task of ours. */
function signedReplicateDelivery() {
  const body = JSON.stringify({ id: 'p-not-ours', status: 'succeeded' });
  const id = 'msg_metrics';
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', WEBHOOK_KEY)
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64');
  return {
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
    payload: body,
  };
}

/** The value of one sample in Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}) {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

describe.each(databaseKinds)('metrics on %s', (kind) => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    t = await createTestApp(kind, {
      env: {
        METRICS_TOKEN: TOKEN,
        STRIPE_SECRET_KEY: 'sk_test_unused',
        STRIPE_WEBHOOK_SECRET: 'whsec_unused',
        // Replicate's adapter takes webhooks, verified locally with this secret (no network).
        REPLICATE_API_TOKEN: 'r8_unused',
        REPLICATE_API_URL: 'http://127.0.0.1:9',
        REPLICATE_WEBHOOK_SECRET: `whsec_${WEBHOOK_KEY.toString('base64')}`,
      },
    });
  });
  afterAll(() => t.close());

  it('refuses a scrape without the token or with a wrong one', async () => {
    const none = await t.app.inject({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('INVALID_METRICS_TOKEN');
    const wrong = await t.app.inject({ url: '/metrics', headers: bearer(`${TOKEN}x`) });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('http_request_duration_seconds');
  });

  it('answers Prometheus text with the token', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
    expect(res.body).toContain('# TYPE video_queue_depth gauge');
  });

  it('times requests by route pattern, never by the raw URL', async () => {
    const ann = await signInLocal(t.app, 'metrics-route@example.com');
    const id = '0b6c3c1e-5d0e-4b7a-9f43-3f7f3d2b9a11';
    const res = await t.app.inject({
      url: `/api/credits/${ann.user.id}/transactions`,
      headers: bearer(ann.token),
    });
    expect(res.statusCode).toBe(200);
    await t.app.inject({ url: `/api/no-such-route/${id}` });
    const text = await scrape();
    const labels = { method: 'GET', route: '/api/credits/:userId/transactions', status: '200' };
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(1);
    expect(text).not.toContain(ann.user.id);
    expect(text).not.toContain(id);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('reads queue depth, the oldest pending age and unfinished tasks from the database', async () => {
    const before = await scrape();
    const pending = sample(before, 'video_queue_depth', { state: 'pending' }) ?? 0;
    const ann = await signInLocal(t.app, 'metrics-queue@example.com');
    await grantCredits(t, ann.user.id, 40);
    for (const prompt of ['a red kite', 'a blue boat']) {
      const res = await requestGeneration(t.app, ann.token, { prompt, model: 'veo3' });
      expect(res.statusCode).toBe(200);
    }
    const text = await scrape();
    expect(sample(text, 'video_queue_depth', { state: 'pending' })).toBe(pending + 2);
    expect(sample(text, 'video_queue_depth', { state: 'processing' })).toBe(0);
    expect(
      sample(text, 'video_tasks_unfinished', { state: 'pending', provider: 'local' }),
    ).toBeGreaterThanOrEqual(2);
    const age = sample(text, 'video_queue_oldest_age_seconds');
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
  });

  it('counts tasks finishing in a worker, and the generation time of completed ones', async () => {
    const ann = await signInLocal(t.app, 'metrics-worker@example.com');
    await grantCredits(t, ann.user.id, 40);
    await requestGeneration(t.app, ann.token, { prompt: 'a calm lake', model: 'veo3' });
    await requestGeneration(t.app, ann.token, { prompt: 'a storm [fail]', model: 'veo3' });
    const provider = fakeProvider({
      failFor: (prompt) => (prompt.includes('[fail]') ? 'the fake failed it' : null),
    });
    const worker = testWorker(t, {
      providers: { [provider.name]: provider },
      routes: routesTo(provider.name),
      metrics: videoTaskMetrics(t.app.metrics, new Map()),
    });
    await drainQueue(t.database.db, worker);
    const text = await scrape();
    const finished = (outcome: string, failureKind: string) =>
      sample(text, 'video_tasks_finished_total', {
        provider: 'fake',
        outcome,
        failure_kind: failureKind,
      });
    // The earlier test's two tasks complete here too.
    expect(finished('completed', '')).toBe(3);
    expect(finished('failed', 'provider')).toBe(1);
    expect(sample(text, 'video_generation_seconds_count', { provider: 'fake' })).toBe(3);
    expect(sample(text, 'video_queue_depth', { state: 'pending' })).toBe(0);
  });

  it('counts webhooks by provider and outcome, naming no provider we do not have', async () => {
    const stripe = await t.app.inject({ method: 'POST', url: '/api/stripe/webhook', payload: {} });
    expect(stripe.statusCode).toBe(400);
    const url = '/api/video/webhooks/replicate';
    const unsigned = await t.app.inject({ method: 'POST', url, payload: {} });
    expect(unsigned.statusCode).toBe(400);
    const signed = await t.app.inject({ method: 'POST', url, ...signedReplicateDelivery() });
    expect(signed.statusCode).toBe(200);
    const madeUp = await t.app.inject({
      method: 'POST',
      url: '/api/video/webhooks/madeup',
      payload: {},
    });
    expect(madeUp.statusCode).toBe(404);
    const text = await scrape();
    const events = (provider: string, outcome: string) =>
      sample(text, 'webhook_events_total', { provider, outcome });
    expect(events('stripe', 'failed')).toBe(1);
    expect(events('replicate', 'failed')).toBe(1);
    expect(events('replicate', 'processed')).toBe(1);
    expect(sample(text, 'webhook_events_total', { provider: 'unknown', outcome: 'failed' })).toBe(
      1,
    );
    expect(text).not.toContain('madeup');
  });
});

describe.each(databaseKinds)('credit metrics on %s', (kind) => {
  // Local mode: purchases go through the local checkout, fulfilled as a webhook would be.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());
  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) });
    expect(res.statusCode).toBe(200);
    return res.body;
  };

  /** The credit counters' values in one scrape, absent series read as 0. */
  const creditCounts = (text: string) => {
    const granted = (source: string) => sample(text, 'credits_granted_total', { source }) ?? 0;
    const spent = (reason: string) => sample(text, 'credits_spent_total', { reason }) ?? 0;
    return {
      checkout: granted('checkout'),
      adminGranted: granted('admin_adjustment'),
      adminTaken: spent('admin_adjustment'),
      videoSpent: spent('video_task'),
      refund: granted('refund'),
      otherGranted: granted('other'),
      otherSpent: spent('other'),
    };
  };
  const countsNow = async () => creditCounts(await scrape());

  it('counts credits bought, granted, spent and refunded, each once and by source type', async () => {
    const before = await countsNow();
    const ann = await signInLocal(t.app, 'metrics-credits@example.com');

    // Bought: the Starter pack (330) through the local checkout, Pay pressed twice on one page.
    const checkout = await requestCheckout(t.app, ann.token, {
      type: 'credits',
      package_id: 'starter',
    });
    expect(checkout.statusCode).toBe(200);
    const { sessionId } = checkout.json();
    const form = await openLocalCheckoutForm(t.app, sessionId);
    await submitLocalCheckout(t.app, sessionId, 'pay', { form });
    await submitLocalCheckout(t.app, sessionId, 'pay', { form });

    // Granted and taken by an administrator, with a reason.
    const admin = await signInAdmin(t.app);
    for (const amount of [20, -5]) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${ann.user.id}/credits`,
        headers: bearer(admin),
        payload: { amount, reason: 'metrics test' },
      });
      expect(res.statusCode).toBe(200);
    }
    // A source type typed by an administrator is counted as `other`, never by its text.
    const typed = await t.app.inject({
      method: 'POST',
      url: '/api/credits/add',
      headers: bearer(admin),
      payload: {
        userId: ann.user.id,
        amount: 3,
        sourceType: 'goodwill_metrics',
        sourceId: 'k1',
        description: 'goodwill',
      },
    });
    expect(typed.statusCode).toBe(200);

    // Spent on a video whose provider fails it, and refunded by the worker.
    const res = await requestGeneration(t.app, ann.token, {
      prompt: 'a hill [fail]',
      model: 'veo3',
    });
    expect(res.statusCode).toBe(200);
    const provider = fakeProvider({ failFor: () => 'the fake failed it' });
    const worker = testWorker(t, {
      db: t.app.database.db,
      providers: { [provider.name]: provider },
      routes: routesTo(provider.name),
    });
    await drainQueue(t.database.db, worker);
    expect(await creditBalance(t.app, ann.token)).toBe(330 + 20 - 5 + 3);

    const after = await countsNow();
    expect(after.checkout - before.checkout).toBe(330);
    expect(after.adminGranted - before.adminGranted).toBe(20);
    expect(after.adminTaken - before.adminTaken).toBe(5);
    expect(after.otherGranted - before.otherGranted).toBe(3);
    expect(after.videoSpent - before.videoSpent).toBe(17);
    expect(after.refund - before.refund).toBe(17);
    expect(await scrape()).not.toContain('goodwill_metrics');
  });

  it('counts nothing for a change that rolled back', async () => {
    const bo = await signInLocal(t.app, 'metrics-rollback@example.com');
    const before = await countsNow();
    // Refused: a generation the balance does not cover (nothing is written at all).
    const poor = await requestGeneration(t.app, bo.token, { prompt: 'a cliff', model: 'veo3' });
    expect(poor.statusCode).toBe(402);
    // Written, then rolled back by a failure later in the same transaction.
    const change = (amount: number) => ({
      userId: bo.user.id,
      amount,
      sourceType: 'admin_adjustment',
      sourceId: randomUUID(),
      description: 'rolled back',
    });
    await expect(
      t.app.database.db.transaction(async (tx) => {
        await t.app.credits.applyIn(tx, change(50));
        await t.app.credits.applyIn(tx, change(-20));
        throw new Error('forced failure after the ledger rows');
      }),
    ).rejects.toThrow('forced failure');
    // A savepoint rolled back inside a transaction that commits: only the outer change counts.
    await t.app.database.db.transaction(async (tx) => {
      await t.app.credits.applyIn(tx, change(7));
      await tx
        .transaction(async (savepoint) => {
          await t.app.credits.applyIn(savepoint, change(100));
          throw new Error('forced failure in the savepoint');
        })
        .catch(() => {});
      // A savepoint released: its change commits with the transaction, and counts.
      await tx.transaction((savepoint) => t.app.credits.applyIn(savepoint, change(-2)));
    });
    expect(await creditBalance(t.app, bo.token)).toBe(5);
    const after = await countsNow();
    expect(after.adminGranted - before.adminGranted).toBe(7);
    expect(after.adminTaken - before.adminTaken).toBe(2);
    expect(after.videoSpent).toBe(before.videoSpent);
  });
});

describe('metrics without a token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(() => t.close());

  it('registers no /metrics route', async () => {
    expect(t.app.routeAccess.some((r) => r.url === '/metrics')).toBe(false);
    expect((await t.app.inject({ url: '/metrics', headers: bearer(TOKEN) })).statusCode).toBe(404);
  });
});

describe('metrics listener (METRICS_PORT)', () => {
  it('serves /metrics without a token and nothing else', async () => {
    const metrics = createMetrics();
    metrics.siteBuildFailures.inc();
    const listener = await serveMetrics(metrics, 0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${listener.port}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(sample(await res.text(), 'site_build_failures_total')).toBe(1);
      expect((await fetch(`${base}/api/health`)).status).toBe(404);
      expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
    } finally {
      await listener.close();
    }
  });
});

describe('npm start with METRICS_PORT', () => {
  it("serves the app's metrics on their own port, without a token, until it stops", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veo3-metrics-start-'));
    const port = await freePort();
    const config = testConfig(dataDir, {
      PORT: '0',
      METRICS_PORT: String(port),
      SAMPLE_CLIPS: 'off',
      HOST: '127.0.0.1',
    });
    const server = await startServer(config, { scheduler: false });
    try {
      // The app itself has no /metrics (no METRICS_TOKEN); its requests are counted all the same.
      expect((await fetch(`http://127.0.0.1:${server.port}/metrics`)).status).toBe(404);
      expect((await fetch(`http://127.0.0.1:${server.port}/api/health`)).status).toBe(200);
      const res = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(res.status).toBe(200);
      const labels = { method: 'GET', route: '/api/health', status: '200' };
      expect(sample(await res.text(), 'http_request_duration_seconds_count', labels)).toBe(1);
    } finally {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});

describe('site build metrics', () => {
  it('times a failed build and counts the failure', async () => {
    // A project folder without Astro: `astro build` cannot start, so the build fails at once.
    const root = await mkdtemp(path.join(tmpdir(), 'veo3-metrics-site-'));
    try {
      const metrics = createMetrics();
      const builder = createSiteBuilder({
        dataDir: path.join(root, 'data'),
        publicSiteUrl: 'http://localhost:4321',
        log: pino({ level: 'silent' }),
        projectRoot: root,
        onBuildFinished: siteBuildMetrics(metrics),
      });
      await expect(builder.build()).rejects.toThrow();
      const text = await metrics.registry.metrics();
      expect(sample(text, 'site_build_failures_total')).toBe(1);
      expect(sample(text, 'site_build_seconds_count')).toBe(1);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  /** A builder whose site renders at once (no Astro); `render` and `onSwitch` can be made to fail. */
  async function renderingBuilder(opts: Pick<SiteBuilderOptions, 'render' | 'onSwitch'>) {
    const root = await mkdtemp(path.join(tmpdir(), 'veo3-metrics-site-'));
    const metrics = createMetrics();
    const dataDir = path.join(root, 'data');
    const builder = createSiteBuilder({
      dataDir,
      publicSiteUrl: 'http://localhost:4321',
      log: pino({ level: 'silent' }),
      projectRoot: root,
      onBuildFinished: siteBuildMetrics(metrics),
      ...opts,
    });
    const counts = async () => {
      const text = await metrics.registry.metrics();
      return {
        failures: sample(text, 'site_build_failures_total'),
        builds: sample(text, 'site_build_seconds_count'),
      };
    };
    const releases = () => readdir(siteDirs(dataDir).releases);
    return { builder, counts, releases, remove: () => rm(root, { recursive: true, force: true }) };
  }
  const writeIndex = async (dir: string) => {
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'index.html'), '<h1>hi</h1>');
  };

  it('counts a failure after the site rendered: the release cannot be recorded', async () => {
    const site = await renderingBuilder({
      // A folder where the release's manifest goes: writing it fails after the render succeeded.
      render: async (dir) => {
        await writeIndex(dir);
        await mkdir(path.join(dir, MANIFEST));
      },
    });
    try {
      await expect(site.builder.build()).rejects.toThrow();
      expect(await site.counts()).toEqual({ failures: 1, builds: 1 });
      expect(await site.releases()).toEqual([]);
    } finally {
      await site.remove();
    }
  });

  it('counts a failure in the switch once, and a good build as no failure', async () => {
    let failSwitch = true;
    const site = await renderingBuilder({
      render: writeIndex,
      onSwitch: () => {
        if (failSwitch) throw new Error('reload failed');
      },
    });
    try {
      await expect(site.builder.build()).rejects.toThrow('reload failed');
      expect(await site.counts()).toEqual({ failures: 1, builds: 1 });
      failSwitch = false;
      await site.builder.build();
      expect(await site.counts()).toEqual({ failures: 1, builds: 2 });
    } finally {
      await site.remove();
    }
  });
});
