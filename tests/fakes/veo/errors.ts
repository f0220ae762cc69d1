/** Google's error JSON for the Veo fake, and the answers of a flaky job's failing steps. */
import type { ServerResponse } from 'node:http';
import type { VeoFake, VeoScenario } from './types.ts';

/** Answers with a status and a JSON body, recording the status in the request log. */
export type Send = (status: number, body: unknown) => void;

export const googleError = (
  code: number,
  status: string,
  message: string,
  details?: unknown[],
) => ({
  error: { code, message, status, ...(details ? { details } : {}) },
});

/** A failing step of a flaky job: 429 (with the fake's retry-after, when set) or 500. */
export function flakyAnswer(
  fake: VeoFake,
  res: ServerResponse,
  scenario: VeoScenario,
  send: Send,
): void {
  if (scenario === 'flaky429') {
    const details =
      fake.retryAfterSeconds === null
        ? undefined
        : [
            {
              '@type': 'type.googleapis.com/google.rpc.RetryInfo',
              retryDelay: `${fake.retryAfterSeconds}s`,
            },
          ];
    if (fake.retryAfterSeconds !== null)
      res.setHeader('retry-after', String(fake.retryAfterSeconds));
    return send(
      429,
      googleError(
        429,
        'RESOURCE_EXHAUSTED',
        'You exceeded your current quota, please check your plan and billing details.',
        details,
      ),
    );
  }
  return send(
    500,
    googleError(
      500,
      'INTERNAL',
      'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    ),
  );
}
