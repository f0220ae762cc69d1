/**
 * A local Gemini API that speaks the Interactions API's wire format for Gemini Omni video over
 * real HTTP, so the production adapter (server/domains/video/providers/gemini/adapter.ts) is what tests
 * exercise:
 * - `POST /v1beta/interactions` (key check, strict body check, 404 for ids other than the current
 *   `gemini-omni-*` ones, "is no longer available" for retired Veo ids, `failSubmits`),
 * - `GET /v1beta/interactions/{id}` (in_progress until the `pollsUntilDone`-th check, then
 *   completed with the video, or failed for `[policy]` / `[fail]`; `[hang]` never ends),
 * - `POST /v1beta/interactions/{id}/cancel`,
 * - `GET /v1beta/files/{id}:download?alt=media` for `delivery: 'uri'`, which needs the key and
 *   redirects to a signed URL on a second server (another origin); `delivery: 'inline'` (the
 *   API's default) puts the MP4 in the interaction as base64 instead.
 *
 * Modules: api.ts (key check and routing), interactions.ts, request-body.ts (the body check),
 * files.ts (file route and storage server), errors.ts (Google's error JSON), state.ts, types.ts.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createGeminiProvider } from '../../../server/domains/video/providers/gemini/adapter.ts';
import { closeServer, listen, sendJson, allowList } from '../http.ts';
import { shapedVideo } from '../video/shape.ts';
import { handleApi } from './api.ts';
import { googleError } from './errors.ts';
import { handleStorage } from './files.ts';
import type { GeminiState } from './state.ts';
import type { GeminiFake } from './types.ts';

export type { GeminiFake, GeminiRequestLog } from './types.ts';
export { CURRENT_MODELS, FAIL_MESSAGE, POLICY_MESSAGE, RETIRED_MODELS } from './interactions.ts';

/** Starts a fake Gemini API (and its storage host) on 127.0.0.1 with random ports. */
export async function startGeminiFake(
  opts: { apiKey?: string; pollsUntilDone?: number } = {},
): Promise<GeminiFake> {
  // The handlers read `state`, set below before anything can connect.
  const api = createServer((req, res) => {
    handleApi(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, googleError(500, String(err)));
    });
  });
  const storage = createServer((req, res) => {
    handleStorage(state, req, res).catch(() => res.destroy());
  });
  const url = (await listen(api)).url;
  const storageUrl = (await listen(storage)).url;
  const allowed = allowList(url, storageUrl);
  const apiKey = opts.apiKey ?? `AIzaSy${randomBytes(16).toString('base64url')}`;

  const fake: GeminiFake = {
    provider: 'gemini',
    outbound: allowed.policy,
    url,
    storageUrl,
    apiKey,
    env: { GEMINI_API_KEY: apiKey, GEMINI_API_BASE: url, OUTBOUND_ALLOW_HOSTS: allowed.env },
    models: { text: 'gemini-omni-1.2-flash', image: 'gemini-omni-1.2-flash' },
    createAdapter: (adapterOpts = {}) =>
      createGeminiProvider({
        apiKey,
        apiBase: url,
        outbound: allowed.policy,
        retry: adapterOpts.retry,
        fetchImpl: adapterOpts.fetchImpl,
      }),
    jobs: [],
    requests: [],
    images: new Map(),
    pollsUntilDone: opts.pollsUntilDone ?? 1,
    submitDelayMs: 0,
    video: (shape) => shapedVideo(shape),
    failSubmits(count, failure) {
      for (let i = 0; i < count; i += 1) state.submitFailures.push(failure);
    },
    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      await Promise.all([closeServer(api), closeServer(storage)]);
    },
  };
  const state: GeminiState = {
    fake,
    jobs: new Map(),
    files: new Map(),
    signed: new Set(),
    submitFailures: [],
    timers: new Set(),
  };
  return fake;
}
