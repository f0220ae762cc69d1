/**
 * Prometheus metrics (item 6 of issue 18). Each app, and a separate worker, owns one Registry:
 * prom-client's global registry would make every app a test builds share (and re-register) the
 * same series. Counters and histograms are updated where things happen; the queue's gauges are
 * read from the database at scrape time, so any number of instances report the same queue.
 *
 * `GET /metrics` on the main app needs `Authorization: Bearer METRICS_TOKEN` (absent when the
 * token is empty); METRICS_PORT serves the same text on a listener of its own without a token,
 * for a scraper on a private network (serveMetrics).
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { unauthorized } from './errors.ts';
import { msg } from './api-messages.ts';

/** Generation takes seconds locally and minutes at a hosted Veo: buckets span both. */
const GENERATION_BUCKETS = [5, 15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800];
const SITE_BUILD_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300];

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(opts: { processMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (opts.processMetrics) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request durations by route pattern and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    tasksFinished: new Counter({
      name: 'video_tasks_finished_total',
      help: 'Video tasks finished by this process, by provider, outcome and failure kind',
      labelNames: ['provider', 'outcome', 'failure_kind'] as const,
      registers,
    }),
    generationSeconds: new Histogram({
      name: 'video_generation_seconds',
      help: 'Seconds from a video request to its completed video, by provider',
      labelNames: ['provider'] as const,
      buckets: GENERATION_BUCKETS,
      registers,
    }),
    webhookEvents: new Counter({
      name: 'webhook_events_total',
      help: 'Provider webhook deliveries handled, by provider and outcome',
      labelNames: ['provider', 'outcome'] as const,
      registers,
    }),
    creditsGranted: new Counter({
      name: 'credits_granted_total',
      help: 'Credits added to balances by transactions this process committed, by ledger source type (other: a type set by hand)',
      labelNames: ['source'] as const,
      registers,
    }),
    creditsSpent: new Counter({
      name: 'credits_spent_total',
      help: 'Credits taken from balances (spent, refunded purchases, disputes) by transactions this process committed, by ledger source type',
      labelNames: ['reason'] as const,
      registers,
    }),
    siteBuildSeconds: new Histogram({
      name: 'site_build_seconds',
      help: 'Duration of site builds (successful and failed)',
      buckets: SITE_BUILD_BUCKETS,
      registers,
    }),
    siteBuildFailures: new Counter({
      name: 'site_build_failures_total',
      help: 'Site builds that failed',
      registers,
    }),
    sitePublishHookFailures: new Counter({
      name: 'site_publish_hook_failures_total',
      help: 'SITE_PUBLISH_HOOK runs that failed or timed out (the release stayed live)',
      registers,
    }),
  };
}

/**
 * The worker's hook (WorkerOptions.metrics): counts each task once, where it finishes. `labels`
 * maps a provider name to its metric label (the video domain's registry; core knows no provider):
 * a name it lacks (a test double) is its own label.
 */
export function videoTaskMetrics(metrics: Metrics, labels: ReadonlyMap<string, string>) {
  return {
    onFinished(
      task: { provider: string; createdAt: Date },
      outcome: 'completed' | 'failed',
      failureKind?: string,
    ) {
      const provider = labels.get(task.provider) ?? task.provider;
      metrics.tasksFinished.inc({ provider, outcome, failure_kind: failureKind ?? '' });
      if (outcome === 'completed') {
        const seconds = (Date.now() - task.createdAt.getTime()) / 1000;
        metrics.generationSeconds.observe({ provider }, seconds);
      }
    },
  };
}

/** The site builder's hook (SiteBuilderOptions.onBuildFinished). */
export function siteBuildMetrics(metrics: Metrics) {
  return (seconds: number, ok: boolean) => {
    metrics.siteBuildSeconds.observe(seconds);
    if (!ok) metrics.siteBuildFailures.inc();
  };
}

/**
 * A webhook delivery, counted when answered: a 2xx means verified and committed (Stripe's handler
 * answers after its transaction; a video one after the task was nudged), anything else failed.
 * The provider comes from the route, or from its :provider parameter only when it names one of
 * ours (`providerLabels`, from the video domain): the parameter is the caller's text, and each
 * label value is a series kept forever.
 */
function countWebhook(
  metrics: Metrics,
  providerLabels: ReadonlyMap<string, string>,
  request: FastifyRequest,
  routeUrl: string,
  status: number,
): void {
  const named = (request.params as { provider?: unknown } | undefined)?.provider;
  const provider = routeUrl.startsWith('/api/stripe/')
    ? 'stripe'
    : ((typeof named === 'string' ? providerLabels.get(named) : undefined) ?? 'unknown');
  const outcome = status >= 200 && status < 300 ? 'processed' : 'failed';
  metrics.webhookEvents.inc({ provider, outcome });
}

/**
 * One query for the several metrics a scrape collects from it: prom-client starts every collect
 * of a scrape at once, so they share the promise; the next scrape queries afresh.
 */
export function oncePerScrape<T>(query: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= query().finally(() => setTimeout(() => (pending = null), 0));
    return pending;
  };
}

/** Constant-time comparison of a presented token (hashed first: equal lengths, no length leak). */
function tokenMatches(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's metrics: the onResponse hook and the domains record into it. */
    metrics: Metrics;
  }
}

/**
 * Decorates `metrics`, times every response by its route pattern (never the raw URL: ids would
 * make a series per task), and registers GET /metrics when a token is configured.
 */
export const metricsPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      token: string | null;
      metrics: Metrics;
      /** Webhook :provider name → metric label (the video providers' registry). */
      providerLabels: ReadonlyMap<string, string>;
    },
  ) => {
    const { token, metrics, providerLabels } = opts;
    app.decorate('metrics', metrics);
    const record = (
      request: FastifyRequest,
      status: number,
      seconds: number,
      route: string,
      webhook: boolean,
    ) => {
      metrics.httpDuration.observe(
        { method: request.method, route, status: String(status) },
        seconds,
      );
      if (webhook) countWebhook(metrics, providerLabels, request, route, status);
    };
    // Each route's own hook, made when it is registered, knows its pattern and access level:
    // reading them per request (request.routeOptions) builds a new object every time. Callback
    // style: no promise on every request.
    app.addHook('onRoute', (route) => {
      const pattern = route.url;
      const webhook = route.config?.access === 'webhook';
      const timed: onResponseHookHandler = (request, reply, done) => {
        record(request, reply.statusCode, reply.elapsedTime / 1000, pattern, webhook);
        done();
      };
      route.onResponse = [...[route.onResponse ?? []].flat(), timed];
    });
    // What no route's hook sees: addresses no route takes, and those a route hands to the
    // not-found handler (their answer ends in its context).
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404)
        record(request, reply.statusCode, reply.elapsedTime / 1000, 'unmatched', false);
      done();
    });
    if (!token) return;
    app.get(
      '/metrics',
      // No session: the handler checks the bearer METRICS_TOKEN itself.
      { config: { access: 'metrics-token' }, schema: { hide: true } },
      async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const presented = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!presented || !tokenMatches(presented, token)) {
          throw unauthorized(msg('metrics.token_required'), 'INVALID_METRICS_TOKEN');
        }
        return reply
          .header('content-type', metrics.registry.contentType)
          .header('cache-control', 'no-store')
          .send(await metrics.registry.metrics());
      },
    );
  },
  { name: 'metrics', dependencies: ['access'] },
);

/**
 * METRICS_PORT: a listener of its own serving only GET /metrics, without a token (bind it where
 * only the scraper reaches it). Resolves once listening; `close` stops it.
 */
export async function serveMetrics(
  metrics: Metrics,
  port: number,
  host: string,
): Promise<{ server: Server; port: number; close(): Promise<void> }> {
  // Not `import … from 'node:http'`: an ES module import of it reads every export, and its
  // lazy WebSocket getter loads all of undici, tens of milliseconds of every start (issue 33).
  const { createServer } = process.getBuiltinModule('node:http');
  const server = createServer((req, res) => {
    const url = (req.url ?? '').split('?')[0];
    if (url !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  return {
    server,
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
