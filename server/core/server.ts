/**
 * The Fastify instance before any plugin: logger (credentials redacted, one access-log line per
 * request), body, parser and router limits, the refusals the router makes itself, and the
 * config every plugin can read as `app.config`.
 */
import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Config } from '../config.ts';
import { frameworkErrorHandler } from './errors.ts';
import { logStream } from './log.ts';
import { apiSecurityHeaders } from './security.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

/** Pino redaction: credentials never reach the log. */
export const REDACT_PATHS = [
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
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', allErrors: false } },
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Plugins open and migrate the database and read the sample cache: start-up work that takes
    // what it takes on a slow disk, not a plugin that hangs, so no load deadline.
    pluginTimeout: 0,
    // Addresses the router refuses before any hook runs still answer in our shape and headers.
    // They are JSON, never a document: the API's headers.
    frameworkErrors: frameworkErrorHandler(() => apiSecurityHeaders(config.isProduction)),
  });
  app.decorate('config', config);
  return app;
}
