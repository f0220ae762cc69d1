/**
 * The Fastify instance before any plugin: logger (credentials redacted, one access-log line per
 * request), connection deadlines, body, parser and router limits, the refusals the router makes
 * itself, and the config every plugin can read as `app.config`.
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import pino from 'pino';
import type { Config } from '../config.ts';
import { frameworkErrorHandler } from './errors.ts';
import { POST_CONTENT_MAX } from '../../shared/blog.ts';
import { logStream } from './log.ts';
import { apiSecurityHeaders } from './security.ts';
import { partAwareValidator } from './validation.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Adds a FrontDoor: asked, in the order added, about every request before Fastify. */
    addFrontDoor(door: FrontDoor): void;
    /** The access-log line of an answer a FrontDoor gave (the same line as Fastify's). */
    logAnswered(method: string, url: string, id: string, status: number, ms: number): void;
  }
}

/**
 * Answers a request before Fastify routes it (true), or leaves it to Fastify (false). For the
 * answers that cost less than Fastify's own work per request: the static site's pages held in
 * memory (domains/site-build/static-site.ts). A door gives the same answer, headers and
 * access-log line Fastify's route would, and declines anything it is not sure of.
 */
export type FrontDoor = (req: IncomingMessage, res: ServerResponse) => boolean;

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
 *
 * The line of an answered request is put together here, as pino writes it (level, time, pid,
 * hostname, reqId, then the fields), and written straight to the log stream: its fields are the
 * method, the path without its query, the request id, the status and the time, so nothing in it
 * can carry a credential, and pino's redaction walk and serializers cost more per request than
 * the rest of the line (issue 33). Errors go through the request's own logger, redaction and
 * serializers included.
 */
class AccessLog extends LogController {
  readonly #stream: { write(line: string): unknown };
  readonly #enabled: boolean;
  /** `{"level":30,"time":` and `,"pid":…,"hostname":…,"reqId":`: the same on every line. */
  readonly #head = `{"level":${pino.levels.values.info},"time":`;
  readonly #process = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())},"reqId":`;

  constructor(stream: { write(line: string): unknown }, level: string) {
    super();
    this.#stream = stream;
    this.#enabled = (pino.levels.values[level] ?? Infinity) <= pino.levels.values.info!;
  }
  override incomingRequest() {}
  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    if (error) {
      const line = { req: request, res: reply, responseTime: reply.elapsedTime };
      reply.log.error({ ...line, err: error }, 'request errored');
      return;
    }
    this.answered(request.method, request.url, request.id, reply.statusCode, reply.elapsedTime);
  }
  answered(method: string, url: string, requestId: string, status: number, ms: number) {
    if (!this.#enabled) return;
    // Only the path needs escaping: Node's parser takes only token methods, and ids are ours.
    const id = PLAIN_ID.test(requestId) ? `"${requestId}"` : JSON.stringify(requestId);
    // To the microsecond: printing all seventeen digits of the double cost more than the rest.
    const time = Math.round(ms * 1000) / 1000;
    this.#stream.write(
      `${this.#head}${Date.now()}${this.#process}${id},"req":{"method":"${method}","url":${JSON.stringify(pathOf(url))},"id":${id}},"res":{"statusCode":${status}},"responseTime":${time},"msg":"request completed"}\n`,
    );
  }
}

/** Request ids as Fastify and the front doors make them ('req-0a1b2c3d-1f'): nothing to escape. */
const PLAIN_ID = /^[\w-]+$/;

type LogArgs = unknown[];
type LogFn = (...line: LogArgs) => void;

/**
 * `request.log`, made when something logs through it. Fastify makes a child logger for every
 * request (its id bound), and pino's child, with the redaction paths, costs about a microsecond;
 * nearly no request logs anything of its own (the access line is AccessLog's). The real child is
 * made on the first call and used from then on; it has what FastifyBaseLogger names.
 */
class RequestLogger {
  #made: FastifyBaseLogger | null = null;
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: pino.Bindings;
  readonly #options: pino.ChildLoggerOptions;

  constructor(
    parent: FastifyBaseLogger,
    bindings: pino.Bindings,
    options: pino.ChildLoggerOptions,
  ) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }
  get #logger(): FastifyBaseLogger {
    return (this.#made ??= this.#parent.child(this.#bindings, this.#options));
  }
  get level(): string {
    return this.#made?.level ?? this.#options.level ?? this.#parent.level;
  }
  set level(level: string) {
    this.#logger.level = level;
  }
  child(bindings: pino.Bindings, options?: pino.ChildLoggerOptions): FastifyBaseLogger {
    return this.#logger.child(bindings, options);
  }
  // Written out, not added in a loop: Fastify looks every one of them up on each request.
  fatal(...line: LogArgs) {
    (this.#logger.fatal as LogFn)(...line);
  }
  error(...line: LogArgs) {
    (this.#logger.error as LogFn)(...line);
  }
  warn(...line: LogArgs) {
    (this.#logger.warn as LogFn)(...line);
  }
  info(...line: LogArgs) {
    (this.#logger.info as LogFn)(...line);
  }
  debug(...line: LogArgs) {
    (this.#logger.debug as LogFn)(...line);
  }
  trace(...line: LogArgs) {
    (this.#logger.trace as LogFn)(...line);
  }
  silent(...line: LogArgs) {
    (this.#logger.silent as LogFn)(...line);
  }
}
const requestLogger = (
  parent: FastifyBaseLogger,
  bindings: pino.Bindings,
  options: pino.ChildLoggerOptions,
) => new RequestLogger(parent, bindings, options) as unknown as FastifyBaseLogger;

/** A URL without its query string: reset tokens and passwords may travel in them. */
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

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
  const destination = stream ?? logStream(config.logFormat);
  const accessLog = new AccessLog(destination, config.logLevel);
  const doors: FrontDoor[] = [];
  const instanceTag = randomBytes(4).toString('hex');
  let requests = 0;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      stream: destination,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        // Never log query strings (pathOf).
        req: (req) => ({ method: req.method, url: pathOf(req.url), id: req.id }),
      },
    },
    // Unique across instances and restarts (it is the x-request-id a /v1 client quotes to us):
    // this process's random tag, then a counter.
    genReqId: () => `req-${instanceTag}-${(requests++).toString(36)}`,
    logController: accessLog,
    childLoggerFactory: requestLogger,
    trustProxy: config.trustProxy,
    bodyLimit: DEFAULT_BODY_LIMIT,
    // The HTTP server Fastify would make, with the front doors asked first.
    serverFactory: (handler) => httpServer(config, doors, handler),
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
  app.decorate('addFrontDoor', (door: FrontDoor) => {
    doors.push(door);
  });
  app.decorate('logAnswered', accessLog.answered.bind(accessLog));
  // A refusal that asks the client to come back later (a full image queue) says when.
  app.addHook('onError', (_request, reply, error, done) => {
    const retryAfter = (error as { retryAfterSeconds?: unknown }).retryAfterSeconds;
    if (typeof retryAfter === 'number') reply.header('retry-after', String(retryAfter));
    done();
  });
  return app;
}

/**
 * The HTTP server: `doors` first, then Fastify's `handler`. Slow clients cannot hold
 * connections: see config.ts for the deadlines and why.
 */
function httpServer(
  config: Config,
  doors: FrontDoor[],
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  // Not `import … from 'node:http'`: an ES module import of it reads every export, and its
  // lazy WebSocket getter loads all of undici (see core/metrics.ts).
  const http = process.getBuiltinModule('node:http');
  const server = http.createServer(
    {
      headersTimeout: config.http.headersTimeoutMs,
      requestTimeout: config.http.requestTimeoutMs,
      // Node enforces both deadlines on a sweep, every 30 s by default: a connection with a
      // 10 s deadline could live 40 s. Sweep often enough to keep them.
      connectionsCheckingInterval: Math.min(1000, config.http.headersTimeoutMs / 4),
    },
    (req, res) => {
      for (const door of doors) if (door(req, res)) return;
      handler(req, res);
    },
  );
  server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
  server.setTimeout(config.http.idleTimeoutMs);
  return server;
}
