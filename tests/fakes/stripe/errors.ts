/** Stripe's error envelope for the Stripe fake: handlers throw these, the server answers them. */

export interface StripeErrorBody {
  type: string;
  message: string;
  code?: string;
  param?: string;
  doc_url?: string;
}

/** Thrown by handlers; becomes Stripe's `{ error: {...} }` answer. */
export class ApiError extends Error {
  readonly status: number;
  readonly body: StripeErrorBody;
  constructor(status: number, body: StripeErrorBody) {
    super(body.message);
    this.status = status;
    this.body = body;
  }
}

export const invalid = (message: string, param?: string): ApiError =>
  new ApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(param === undefined ? {} : { param }),
  });

export const missingParam = (param: string): ApiError =>
  new ApiError(400, {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
    message: `Missing required param: ${param}.`,
    param,
  });

export const noSuch = (kind: string, id: string, param: string): ApiError =>
  new ApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: 'https://stripe.com/docs/error-codes/resource-missing',
    message: `No such ${kind}: '${id}'`,
    param,
  });

// Valid Stripe parameters the fake does not model: failing loudly beats silently ignoring them.
export const notImplemented = (param: string): ApiError =>
  invalid(`The Stripe fake does not implement \`${param}\`; extend tests/fakes/stripe/.`, param);
