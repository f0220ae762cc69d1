/**
 * API errors. Services throw `AppError` with a status, a stable code and a message a person can
 * act on; the error handler turns every error into `{ success: false, message, code }`.
 */
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

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
      const status = fe.statusCode && fe.statusCode >= 400 ? fe.statusCode : 500;
      if (status < 500) {
        return reply.status(status).send({
          success: false,
          message: clientMessage(fe, status),
          code: fe.code ?? 'BAD_REQUEST',
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

function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type. Send JSON (application/json).';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty; send a JSON object.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large.';
    default:
      if (status === 400 && error instanceof SyntaxError)
        return 'The request body is not valid JSON.';
      if (status === 429) return 'Too many requests. Please wait a minute and try again.';
      return error.message;
  }
}
