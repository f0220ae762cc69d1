/**
 * Health for people and load balancers:
 * - GET /api/health: database reachability, version and uptime (the original check). The
 *   database's answer is shared: requests at the same moment wait for one ping, and its answer
 *   stands for PING_REUSE_MS, so a monitor, a balancer or a flood of anonymous requests on this
 *   public address costs the database at most a ping a second (issue 33).
 * - GET /api/health/live: the process answers; touches nothing else (a restart is the cure): no
 *   database, no session read, no per-route work beyond the headers every answer carries.
 * - GET /api/health/ready: whether this instance should get traffic: the database answers and
 *   every critical check passes (the media store is writable); non-critical checks (queue lag)
 *   are reported only. From the moment shutdown begins (`app.beginDraining`), ready answers 503
 *   so the balancer stops sending new requests while the in-flight ones finish.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { HealthResponse, LiveResponse, ReadyResponse } from '../contracts/common.ts';
import { cachedReading } from './cached-reading.ts';
import type { Database } from './db.ts';
import type { FrontDoor } from './server.ts';

/** How long one database ping answers GET /api/health (ms). */
const PING_REUSE_MS = 1000;

export interface ReadinessCheck {
  name: string;
  ok: boolean;
  /** A failing critical check takes the instance out of rotation. */
  critical: boolean;
  detail: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Shutdown has begun: /api/health/ready answers 503 from now on. */
    beginDraining(): void;
    /** A domain's readiness checks, run by each GET /api/health/ready. */
    addReadinessCheck(check: () => Promise<ReadinessCheck[]>): void;
  }
}

export const healthPlugin = fp(
  async (
    app: FastifyInstance,
    opts: {
      database: Pick<Database, 'ping'>;
      version: string;
      startedAt: number;
    },
  ) => {
    let draining = false;
    const readiness: Array<() => Promise<ReadinessCheck[]>> = [];
    app.decorate('beginDraining', () => {
      draining = true;
    });
    app.decorate('addReadinessCheck', (check: () => Promise<ReadinessCheck[]>) => {
      readiness.push(check);
    });
    const databaseUp = cachedReading(() => opts.database.ping(), { ttlMs: PING_REUSE_MS });
    const uptimeSeconds = () => Math.round((Date.now() - opts.startedAt) / 1000);
    const schema = (summary: string, response: Record<number, unknown>) => ({
      config: { access: 'public' as const },
      schema: { tags: ['health'], summary, response },
    });

    app.get(
      '/api/health',
      schema('Liveness and database reachability', { 200: HealthResponse, 503: HealthResponse }),
      async (_request, reply) => {
        const up = await databaseUp();
        return reply.status(up ? 200 : 503).send({
          success: up,
          status: up ? 'ok' : 'degraded',
          database: up ? 'up' : 'down',
          version: opts.version,
          uptimeSeconds: uptimeSeconds(),
        });
      },
    );

    app.get(
      '/api/health/live',
      schema('The process answers (touches no database)', { 200: LiveResponse }),
      // Not async: nothing to wait for, so no promise either.
      (_request, reply) =>
        reply.send({
          success: true as const,
          status: 'ok' as const,
          version: opts.version,
          uptimeSeconds: uptimeSeconds(),
        }),
    );

    // The same answer before Fastify (core/server.ts): a probe that asks many times a second
    // costs no routing, no hooks, nothing but the answer, its headers, log line and timing.
    const doorParts = ['addFrontDoor', 'apiHeaders', 'metrics'];
    if (doorParts.every((name) => app.hasDecorator(name))) {
      app.addFrontDoor(
        liveDoor(app, () => ({ version: opts.version, uptimeSeconds: uptimeSeconds() })),
      );
    }

    app.get(
      '/api/health/ready',
      schema('Whether this instance should get traffic', {
        200: ReadyResponse,
        503: ReadyResponse,
      }),
      async (_request, reply) => {
        const database: ReadinessCheck = (await opts.database.ping())
          ? { name: 'database', ok: true, critical: true, detail: 'answered' }
          : { name: 'database', ok: false, critical: true, detail: 'did not answer' };
        const others = database.ok ? (await Promise.all(readiness.map((c) => c()))).flat() : [];
        const checks = [database, ...others];
        const ready = !draining && checks.every((c) => c.ok || !c.critical);
        return reply.status(ready ? 200 : 503).send({
          success: ready,
          status: draining ? 'draining' : ready ? 'ready' : 'not_ready',
          checks,
          version: opts.version,
          uptimeSeconds: uptimeSeconds(),
        });
      },
    );
  },
  { name: 'health', dependencies: ['access'] },
);

/**
 * GET /api/health/live before Fastify, with the answer its route gives (the body made once a
 * second, when the uptime changes). What the route would refuse or treat otherwise goes on to
 * Fastify: other methods, identity headers (core/auth.ts), a NUL in the address
 * (core/request-input.ts), and every request once the server is closing.
 */
function liveDoor(
  app: FastifyInstance,
  now: () => { version: string; uptimeSeconds: number },
): FrontDoor {
  let open = true;
  app.addHook('preClose', (done) => {
    open = false;
    done();
  });
  let made: { uptimeSeconds: number; body: Buffer; headers: Record<string, string> } | null = null;
  let answered = 0;
  return (req, res) => {
    const url = req.url ?? '';
    if (!open || req.method !== 'GET') return false;
    if (!(url === LIVE || (url.startsWith(LIVE) && url[LIVE.length] === '?'))) return false;
    const h = req.headers;
    if (h['x-user-id'] !== undefined || h['x-user-email'] !== undefined) return false;
    if (url.includes('%00') || url.includes('\0')) return false;
    const started = performance.now();
    const { version, uptimeSeconds } = now();
    if (made?.uptimeSeconds !== uptimeSeconds) {
      const body = Buffer.from(
        JSON.stringify({ success: true, status: 'ok', version, uptimeSeconds }),
      );
      const headers = {
        ...app.apiHeaders,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(body.length),
      };
      made = { uptimeSeconds, body, headers };
    }
    res.writeHead(200, made.headers);
    res.end(made.body);
    const ms = performance.now() - started;
    app.logAnswered('GET', url, `req-l${(answered++).toString(36)}`, 200, ms);
    app.metrics.httpDuration.observe({ method: 'GET', route: LIVE, status: '200' }, ms / 1000);
    return true;
  };
}

const LIVE = '/api/health/live';
