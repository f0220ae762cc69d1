/**
 * API errors. Services throw `AppError` with a status, a stable code and a message a person can
 * act on; the error handler turns every error into `{ success: false, message, code }`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { apiLanguagePlugin } from './api-language.ts';

export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  readonly code: string;
  constructor(statusCode: number, code: string, message: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
  }
}

export const badRequest = (message: string, code = 'BAD_REQUEST') =>
  new AppError(400, code, message);
export const unauthorized = (message = 'Please sign in to continue.', code = 'UNAUTHORIZED') =>
  new AppError(401, code, message);
export const forbidden = (message: string, code = 'FORBIDDEN') => new AppError(403, code, message);
export const notFound = (message: string, code = 'NOT_FOUND') => new AppError(404, code, message);
export const conflict = (message: string, code = 'CONFLICT') => new AppError(409, code, message);

/** Turns a schema validation error into one sentence naming the field. */
function validationMessage(error: FastifyError): string {
  const first = error.validation?.[0];
  if (!first) return error.message;
  const field =
    first.instancePath.replace(/^\//, '').replaceAll('/', '.') ||
    (first.params as { missingProperty?: string; additionalProperty?: string } | undefined)
      ?.missingProperty ||
    '';
  const where = error.validationContext ?? 'body';
  const extra = (first.params as { additionalProperty?: string } | undefined)?.additionalProperty;
  if (extra) return `Unknown field '${extra}' in the request ${where}.`;
  if (first.keyword === 'required') return `The field '${field}' is required.`;
  if (first.keyword === 'format' && (first.params as { format?: string }).format === 'email')
    return `'${field}' must be a valid email address.`;
  return field
    ? `Invalid '${field}': ${first.message}.`
    : `Invalid request ${where}: ${first.message}.`;
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
          .send({ success: false, message: error.message, code: error.code });
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
          .send({ success: false, message: known.message, code: known.code });
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
        message: 'Something went wrong on our side. Please try again in a moment.',
        code: 'INTERNAL_ERROR',
      });
    });
  },
  { name: 'errors' },
);

const TOO_MANY_PARTS = {
  status: 400,
  code: 'TOO_MANY_PARTS',
  message: 'The form has too many fields or files: send one file and only the fields it asks for.',
};

/**
 * Errors Fastify and its plugins raise before a handler runs (body parsers, multipart limits),
 * with our status, code and a sentence instead of theirs ("reach parts limit").
 */
const CLIENT_ERRORS: Record<string, { status: number; code: string; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message:
      'Unsupported content type. Send JSON (application/json), or multipart/form-data for uploads.',
  },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    status: 400,
    code: 'INVALID_JSON',
    message: 'The request body is not valid JSON.',
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: {
    status: 400,
    code: 'EMPTY_BODY',
    message: 'The request body is empty; send a JSON object.',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    status: 413,
    code: 'BODY_TOO_LARGE',
    message: 'The request body is too large. Send less data (images go through the upload form).',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'INVALID_CONTENT_LENGTH',
    message: 'The Content-Length header does not match the body that was sent.',
  },
  FST_REQ_FILE_TOO_LARGE: {
    status: 413,
    code: 'IMAGE_TOO_LARGE',
    message: 'The image is larger than 10MB. Please choose a smaller image.',
  },
  FST_PARTS_LIMIT: TOO_MANY_PARTS,
  FST_FILES_LIMIT: TOO_MANY_PARTS,
  FST_FIELDS_LIMIT: TOO_MANY_PARTS,
  FST_PROTO_VIOLATION: {
    status: 400,
    code: 'FORBIDDEN_FIELD_NAME',
    message: "A form field is named after a reserved property (such as '__proto__'); rename it.",
  },
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'MULTIPART_REQUIRED',
    message: 'Send this form as multipart/form-data.',
  },
  FST_INVALID_JSON_FIELD_ERROR: {
    status: 400,
    code: 'INVALID_JSON_FIELD',
    message: 'A form field sent as application/json is not valid JSON.',
  },
  FST_STATIC_FORBIDDEN_PATH: {
    status: 403,
    code: 'FORBIDDEN_PATH',
    message: 'This file address is not allowed. Check the link.',
  },
  FST_MP_PREMATURE_CLOSE: {
    status: 400,
    code: 'MULTIPART_INCOMPLETE',
    message: 'The upload ended before the form was complete. Please try again.',
  },
};

/** A parser's or multipart's own error (FST_PARTS_LIMIT…) as the AppError we answer with. */
export function knownClientError(error: unknown): AppError | null {
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? CLIENT_ERRORS[code] : undefined;
  return known ? new AppError(known.status, known.code, known.message) : null;
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
const STATUS_MESSAGES: Record<number, string> = {
  400: 'The request could not be understood. Check the address and the data you sent.',
  403: 'This address cannot be opened. Check the link.',
  404: 'There is nothing at this address. Check the link.',
  405: 'This method is not allowed at this address.',
  412: 'The file changed since you last loaded it. Reload and try again.',
  416: 'The requested byte range is outside the file. Reload and try again.',
};

function clientMessage(error: FastifyError, status: number): string {
  if (status === 400 && error instanceof SyntaxError) return 'The request body is not valid JSON.';
  if (status === 429) return 'Too many requests. Please wait a minute and try again.';
  // http-errors (used by @fastify/static's `send`) set `expose`; their message is the bare phrase.
  const bare = !error.message || (error as { expose?: boolean }).expose === true;
  return (bare && STATUS_MESSAGES[status]) || error.message || 'The request was refused.';
}

/** The not-found handler: an address no route answers, named in the message. */
export function notFoundHandler(request: FastifyRequest, reply: FastifyReply) {
  return reply.status(404).send({
    success: false,
    message: `There is no ${request.method} ${request.url.split('?')[0]} here. Check the address.`,
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
        message: 'A part of the address is too long. Check the link.',
        code: 'URI_TOO_LONG',
      });
    }
    if (error.code === 'FST_ERR_BAD_URL') {
      return reply.status(400).send({
        success: false,
        message: 'The address contains a malformed %-escape. Check the link.',
        code: 'BAD_URL',
      });
    }
    return reply.status(400).send({
      success: false,
      message: STATUS_MESSAGES[400]!,
      code: error.code ?? 'BAD_REQUEST',
    });
  };
}
