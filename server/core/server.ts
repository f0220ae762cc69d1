/**
 * The Fastify instance before any plugin: logger (credentials redacted, one access-log line per
 * request), connection deadlines, body, parser and router limits, the refusals the router makes
 * itself, and the config every plugin can read as `app.config`.
 */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from '../config.ts';
import { frameworkErrorHandler } from './errors.ts';
import { POST_CONTENT_MAX } from '../../shared/blog.ts';
import { logStream } from './log.ts';
import { apiSecurityHeaders } from './security.ts';
import { partAwareValidator } from './validation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** Pino redaction: credentials never reach the log. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-user-email"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.token',
  '*.credential',
  '*.authToken',
];

/**
 * One access-log line per request, written when it is answered, instead of Fastify's two
 * ("incoming request" and "request completed"): half the logging work on every request.
 */
class AccessLog extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Every JSON body this API takes is a few hundred bytes (sign-in, checkout, a credit grant) except
 * an article's; 64 KB leaves room and keeps the parse of a hostile body cheap. Uploads are
 * multipart and have their own limits (core/uploads.ts). A route that needs more declares its
 * `bodyLimit`; a caller without a session still gets this one there (core/access.ts).
 */
const DEFAULT_BODY_LIMIT = 64 * 1024;
/**
 * An article: POST_CONTENT_MAX characters of HTML, at most 3 bytes each as UTF-8 JSON (escaped
 * quotes and newlines take 2), plus the other fields.
 */
export const ARTICLE_BODY_LIMIT = 3 * POST_CONTENT_MAX + DEFAULT_BODY_LIMIT;

/** A new Fastify instance for `config`; logs go to `stream` (default: stdout, see log.ts). */
export function createServer(config: Config, stream?: NodeJS.WritableStream): FastifyInstance {
  // JSON logs go to stdout asynchronously, batched (about a third of a public read's cost under
  // load when written line by line); a terminal gets readable lines (server/core/log.ts).
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: stream ?? logStream(config.logFormat),
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        // Never log query strings: reset tokens and passwords may travel in them.
        req: (req) => ({ method: req.method, url: req.url.split('?')[0], id: req.id }),
      },
    },
    logController: new AccessLog(),
    trustProxy: config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // Slow clients cannot hold connections: see config.ts for the deadlines and why.
    connectionTimeout: config.http.idleTimeoutMs,
    keepAliveTimeout: config.http.keepAliveTimeoutMs,
    requestTimeout: config.http.requestTimeoutMs,
    http: {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node enforces both deadlines on a sweep, every 30 s by default: a connection with a
      // 10 s deadline could live 40 s. Sweep often enough to keep them.
      connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs / 4),
    },
    // Bodies are validated without type coercion, text parts with it (core/validation.ts).
    ajv: { customOptions: { removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: partAwareValidator() } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Plugins open and migrate the database and read the sample cache: start-up work that takes
    // what it takes on a slow disk, not a plugin that hangs, so no load deadline.
    pluginTimeout: 0,
    // Addresses the router refuses before any hook runs still answer in our shape and headers.
    // They are JSON, never a document: the API's headers.
    frameworkErrors: frameworkErrorHandler(() => apiSecurityHeaders(config.isProduction)),
  });
  app.decorate('config', config);
  // A refusal that asks the client to come back later (a full image queue) says when.
  app.addHook('onError', (_request, reply, error, done) => {
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    done();
  });
  return app;
}
