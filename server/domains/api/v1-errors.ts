/**
 * /v1's errors: `{ error: { code, message, param? } }` with the HTTP status that fits (issue 36,
 * item 2), the message in the language Accept-Language prefers. Services throw the same AppError
 * as for the site (core/errors.ts); an AppError with a string `param` property names the field.
 * Schema validation errors are 400 INVALID_REQUEST with the field in `param`; errors of the body
 * parsers keep the codes the site uses (413 BODY_TOO_LARGE, 400 INVALID_JSON, 415 …); anything
 * else is a 500 INTERNAL_ERROR whose details stay in the log.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiText, msg } from '../../core/api-messages.ts';
import { AppError, knownClientError, validationMessage } from '../../core/errors.ts';
import { localeFromAcceptLanguage } from '../../../shared/locales.ts';

interface V1ErrorBody {
  error: { code: string; message: string; param?: string };
}

/** Codes of 4xx errors a library raised without one of ours. */
const STATUS_CODES: Record<number, string> = {
  400: 'INVALID_REQUEST',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

/** The field a validation error is about: its path ("options.duration") or the missing one. */
function validationParam(error: FastifyError): string | undefined {
  const first = error.validation?.[0];
  if (!first) return undefined;
  const params = first.params as { missingProperty?: string; additionalProperty?: string };
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const field = params.additionalProperty ?? params.missingProperty;
  return [path, field].filter(Boolean).join('.') || undefined;
}

function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  error: { code: string; text: ApiText | string; param?: string | undefined },
) {
  const text = error.text;
  const message =
    text instanceof ApiText
      ? text.render(localeFromAcceptLanguage(request.headers['accept-language']))
      : text;
  // The same address answers in either language: caches must key on the header.
  if (text instanceof ApiText) reply.header('vary', 'Accept-Language');
  const body: V1ErrorBody = { error: { code: error.code, message } };
  if (error.param) body.error.param = error.param;
  return reply.status(status).send(body);
}

/** The /v1 scope's error handler. */
export function v1ErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    const param = (error as AppError & { param?: unknown }).param;
    return sendError(request, reply, error.statusCode, {
      code: error.code,
      text: error.text,
      param: typeof param === 'string' ? param : undefined,
    });
  }
  if (error.validation) {
    return sendError(request, reply, 400, {
      code: 'INVALID_REQUEST',
      text: validationMessage(error),
      param: validationParam(error),
    });
  }
  const known = knownClientError(error);
  if (known)
    return sendError(request, reply, known.statusCode, { code: known.code, text: known.text });
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  if (status < 500) {
    return sendError(request, reply, status, {
      code: STATUS_CODES[status] ?? 'REQUEST_REFUSED',
      text: msg('status.refused'),
    });
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(request, reply, 500, {
    code: 'INTERNAL_ERROR',
    text: msg('server.internal_error'),
  });
}

/** An address under /v1 that no endpoint takes (or not with this method). */
export function v1NotFound(request: FastifyRequest): AppError {
  return new AppError(
    404,
    'NOT_FOUND',
    msg('v1.no_route', { method: request.method, path: request.url.split('?')[0]! }),
  );
}
