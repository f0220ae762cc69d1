/** Google's error bodies as the Vertex fake sends them, and the `failSubmits` answers. */
import type { SubmitFailure } from '../video/control.ts';
import type { Send } from './types.ts';

/** A google.rpc.Status error body: `{ error: { code, message, status, details? } }`. */
export function googleError(code: number, status: string, message: string, details?: unknown[]) {
  return { error: { code, message, status, ...(details ? { details } : {}) } };
}

/** What Vertex AI answers a submit it is refusing for load or an outage (no job is created). */
export function sendFailure(send: Send, failure: SubmitFailure): void {
  if (failure.status === 429) {
    const seconds = failure.retryAfterSeconds;
    const details =
      seconds === undefined
        ? undefined
        : [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` }];
    return send(
      429,
      googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'Resource exhausted. Please try again later. Please refer to https://cloud.google.com/vertex-ai/generative-ai/docs/error-code-429 for more details.',
        details,
      ),
      seconds === undefined ? {} : { 'retry-after': String(seconds) },
    );
  }
  if (failure.status === 500) {
    return send(500, googleError(500, 'INTERNAL', 'Internal error encountered.'));
  }
  if (failure.status === 503) {
    return send(503, googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.'));
  }
  // Google's front end answers a 502 with an HTML page, not JSON.
  return send(
    502,
    '<!DOCTYPE html><html lang=en><title>Error 502 (Server Error)!!1</title><p><b>502.</b> That’s an error.',
    { 'content-type': 'text/html; charset=UTF-8' },
  );
}
