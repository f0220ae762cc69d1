/**
 * Google's error JSON (google.rpc.Status) for the Gemini fake: the key check, quota and overload
 * answers, in the words the Gemini API uses.
 */
import type { ServerResponse } from 'node:http';
import type { SubmitFailure } from '../video/control.ts';

/** Answers with a status and a JSON body, recording the status in the request log. */
export type Send = (status: number, body: unknown) => void;

const RPC_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

export const googleError = (
  code: number,
  message: string,
  details?: unknown[],
  status?: string,
) => ({
  error: {
    code,
    message,
    status: status ?? RPC_STATUS[code] ?? 'UNKNOWN',
    ...(details ? { details } : {}),
  },
});

/** Google checks the key before anything else: none is 403, a wrong one 400 API_KEY_INVALID. */
export function keyProblem(header: string | null, apiKey: string): [number, unknown] | null {
  if (header === null) {
    return [
      403,
      googleError(
        403,
        "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
      ),
    ];
  }
  if (header !== apiKey) {
    return [
      400,
      googleError(400, 'API key not valid. Please pass a valid API key.', [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: 'API_KEY_INVALID',
          domain: 'googleapis.com',
          metadata: { service: 'generativelanguage.googleapis.com' },
        },
      ]),
    ];
  }
  return null;
}

/** A submit refused before any interaction exists: quota (429) or an overloaded backend (5xx). */
export function submitFailureAnswer(res: ServerResponse, failure: SubmitFailure, send: Send): void {
  if (failure.status === 429) {
    const seconds = failure.retryAfterSeconds;
    const details: unknown[] = [
      {
        '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
        violations: [
          {
            quotaMetric: 'generativelanguage.googleapis.com/generate_requests_per_model',
            quotaId: 'GenerateRequestsPerMinutePerProjectPerModel',
          },
        ],
      },
    ];
    if (seconds !== undefined) {
      details.push({
        '@type': 'type.googleapis.com/google.rpc.RetryInfo',
        retryDelay: `${seconds}s`,
      });
      res.setHeader('retry-after', String(seconds));
    }
    return send(
      429,
      googleError(
        429,
        'You exceeded your current quota, please check your plan and billing details.',
        details,
      ),
    );
  }
  if (failure.status === 500) {
    return send(
      500,
      googleError(
        500,
        'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
      ),
    );
  }
  return send(
    failure.status,
    googleError(failure.status, 'The model is overloaded. Please try again later.'),
  );
}
