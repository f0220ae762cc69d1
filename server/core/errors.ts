/**
 * API errors. Services throw `AppError` with a status, a stable code (clients branch on it) and a
 * message a person can act on, `msg(key, params)` of the catalogue (messages/api); the error
 * handler turns every error into `{ success: false, message, code }`, and the message becomes text
 * in the request's language when the answer is serialized (api-language.ts).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiLanguagePlugin } from './api-language.ts';
import { MAX_IMAGE_BYTES } from '../../shared/video.ts';
import { MEGABYTE } from '../../shared/images.ts';
import { msg, type ApiText } from './api-messages.ts';

/**
 * A refusal: HTTP status, stable code, and the sentence (`text`; `message` is its English).
 *
 * A 4xx carries no stack: it is the client's to fix, its code says where it came from, and no log
 * shows it, while taking the stack was a sixth of a /v1 404's CPU (about 2 µs, and more under
 * Fastify's frames). A 5xx AppError keeps its stack.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly text: ApiText;
  constructor(statusCode: number, code: string, text: ApiText) {
    const frames = Error.stackTraceLimit;
    if (statusCode < 500) Error.stackTraceLimit = 0;
    try {
      super(text.render('en'));
    } finally {
      Error.stackTraceLimit = frames;
    }
    this.name = 'AppError';
    this.statusCode = statusCode;
    this.code = code;
    this.text = text;
  }
}

export const badRequest = (text: ApiText, code = 'BAD_REQUEST') => new AppError(400, code, text);
export const unauthorized = (text = msg('auth.sign_in_required'), code = 'UNAUTHORIZED') =>
  new AppError(401, code, text);
export const forbidden = (text: ApiText, code = 'FORBIDDEN') => new AppError(403, code, text);
export const notFound = (text: ApiText, code = 'NOT_FOUND') => new AppError(404, code, text);
export const conflict = (text: ApiText, code = 'CONFLICT') => new AppError(409, code, text);

/** Turns a schema validation error into one sentence naming the field. */
export function validationMessage(error: FastifyError): ApiText | string {
  const first = error.validation?.[0];
  // Without details the validator's own sentence is all there is (Fastify never sends none).
  if (!first) return error.message;
  const field =
    first.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
    (first.params as { missingProperty?: string; additionalProperty?: string } | undefined)
      ?.missingProperty ||
    '';
  const where = error.validationContext ?? 'body';
  const extra = (first.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  if (extra) return msg('validation.unknown_field', { field: extra, where });
  if (first.keyword === 'required') return msg('validation.required', { field });
  if (first.keyword === 'format' && (first.params as { format?: string }).format === 'email')
    return msg('validation.email', { field });
  // The validator's detail ("must be string") is Ajv's English in every language.
  const detail = first.message ?? '';
  return field
    ? msg('validation.invalid_field', { field, detail })
    : msg('validation.invalid_request', { where, detail });
}

/** The one error handler: 4xx messages go to the client, 5xx details stay in the log. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    // Messages (these and every other answer's) in the language the client asks for.
    await app.register(apiLanguagePlugin);
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply
          .status(error.statusCode)
          .send({ success: false, message: error.text, code: error.code });
      }
      const fe = error as FastifyError;
      if (fe.validation) {
        return reply
          .status(400)
          .send({ success: false, message: validationMessage(fe), code: 'VALIDATION_ERROR' });
      }
      const known = knownClientError(fe);
      if (known) {
        return reply
          .status(known.statusCode)
          .send({ success: false, message: known.text, code: known.code });
      }
      const status = fe.statusCode && fe.statusCode >= 400 ? fe.statusCode : 500;
      if (status < 500) {
        return reply.status(status).send({
          success: false,
          message: clientMessage(fe, status),
          code: fe.code ?? STATUS_CODES[status] ?? 'BAD_REQUEST',
        });
      }
      request.log.error({ err: error }, 'request failed');
      return reply.status(500).send({
        success: false,
        message: msg('server.internal_error'),
        code: 'INTERNAL_ERROR',
      });
    });
  },
  { name: 'errors' },
);

const TOO_MANY_PARTS = { status: 400, code: 'TOO_MANY_PARTS', text: msg('request.too_many_parts') };

/**
 * Errors Fastify and its plugins raise before a handler runs (body parsers, multipart limits),
 * with our status, code and a sentence instead of theirs ("reach parts limit").
 */
const CLIENT_ERRORS: Record<string, { status: number; code: string; text: ApiText }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    text: msg('request.unsupported_media_type'),
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'INVALID_JSON',
    text: msg('request.invalid_json'),
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'EMPTY_BODY',
    text: msg('request.empty_body'),
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'BODY_TOO_LARGE',
    text: msg('request.body_too_large'),
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'INVALID_CONTENT_LENGTH',
    text: msg('request.content_length_mismatch'),
  },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: 'IMAGE_TOO_LARGE',
    text: msg('images.too_large', { megabytes: MAX_IMAGE_BYTES / MEGABYTE }),
  },
  FST_PARTS_LIMIT: TOO_MANY_PARTS,
  FST_FILES_LIMIT: TOO_MANY_PARTS,
  FST_FIELDS_LIMIT: TOO_MANY_PARTS,
  FST_PROTO_VIOLATION: {
    status: 400,
    code: 'FORBIDDEN_FIELD_NAME',
    text: msg('request.forbidden_field_name'),
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'MULTIPART_REQUIRED',
    text: msg('request.multipart_required'),
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    status: 400,
    code: 'INVALID_JSON_FIELD',
    text: msg('request.invalid_json_field'),
  },
  FST_STATIC_FORBIDDEN_PATH: {
    status: 403,
    code: 'FORBIDDEN_PATH',
    text: msg('request.forbidden_path'),
  },
  FST_MP_PREMATURE_CLOSE: {
    status: 400,
    code: 'MULTIPART_INCOMPLETE',
    text: msg('request.multipart_incomplete'),
  },
};

/** A parser's or multipart's own error (FST_PARTS_LIMIT…) as the AppError we answer with. */
export function knownClientError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? CLIENT_ERRORS[code] : undefined;
  return known ? new AppError(known.status, known.code, known.text) : null;
}

/** Stable codes for 4xx answers that carry none of their own (e.g. @fastify/static's 403). */
const STATUS_CODES: Record<number, string> = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  414: 'URI_TOO_LONG',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  416: 'RANGE_NOT_SATISFIABLE',
};

/** Sentences for libraries' bare reason phrases ("Forbidden"), which tell a person nothing. */
const STATUS_MESSAGES: Record<number, ApiText> = {
  400: msg('status.400'),
  403: msg('status.403'),
  404: msg('status.404'),
  405: msg('status.405'),
  412: msg('status.412'),
  416: msg('status.416'),
};

/**
 * The sentence of a 4xx error a library raised. A library's own specific sentence (not a bare
 * reason phrase) is passed on as it is: it exists in no catalogue, so it stays English.
 */
function clientMessage(error: FastifyError, status: number): ApiText | string {
  if (status === 400 && error instanceof SyntaxError) return msg('request.invalid_json');
  if (status === 429) return msg('status.429');
  // http-errors (used by @fastify/static's `send`) set `expose`; their message is the bare phrase.
  const bare = !error.message || (error as { expose?: boolean }).expose === true;
  return (bare && STATUS_MESSAGES[status]) || error.message || msg('status.refused');
}

/** The not-found handler: an address no route answers, named in the message. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    success: false,
    message: msg('request.no_route', { method: request.method, path: request.url.split('?')[0]! }),
    code: 'NOT_FOUND',
  });
}

/**
 * Fastify's `frameworkErrors`: refusals the router makes before any route or hook runs (an
 * address whose %-escapes do not decode, a path segment longer than maxParamLength). Without it
 * they answer in Fastify's own shape and without our security headers.
 */
export function frameworkErrorHandler(headers: () => Record<string, string>) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
    reply.headers(headers());
    if (tooLong) {
      return reply.status(414).send({
        success: false,
        message: msg('request.param_too_long'),
        code: 'URI_TOO_LONG',
      });
    }
    if (error.code === 'FST_ERR_BAD_URL') {
      return reply.status(400).send({
        success: false,
        message: msg('request.bad_url'),
        code: 'BAD_URL',
      });
    }
    return reply.status(400).send({
      success: false,
      message: STATUS_MESSAGES[400],
      code: error.code ?? 'BAD_REQUEST',
    });
  };
}
