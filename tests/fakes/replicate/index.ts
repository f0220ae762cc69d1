/**
 * A local Replicate that speaks its predictions API over real HTTP, so the production adapter
 * (server/domains/video/providers/replicate/adapter.ts) is what tests exercise:
 * - `POST /v1/models/{owner}/{name}/predictions` (google/veo-3.1 and -fast; 404 for any other
 *   model) and `POST /v1/predictions` with `version`, with a strict body check (422 in
 *   Replicate's `invalid_fields` form) and the Cancel-After header honoured;
 * - `GET /v1/predictions/{id}` (starting → processing → the end, after `pollsUntilDone` checks)
 *   and `POST /v1/predictions/{id}/cancel`;
 * - `GET /v1/webhooks/default/secret`, and signed completion webhooks (`signedWebhook`,
 *   `deliverWebhook`);
 * - the output host (replicate.delivery) on a second server, another origin, serving the test
 *   video at each output URL for an hour of the fake's clock.
 * Outcomes follow the prompt markers of ../video/control.ts: `[policy]` ends `failed` with
 * Replicate's safety text (E005), `[fail]` `failed` with a model error, `[hang]` never ends.
 *
 * Modules: api.ts (routing, create), predictions.ts (life of a prediction, its JSON),
 * input.ts (the body check), webhooks.ts (webhooks and the output host), types.ts.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { createReplicateProvider } from '../../../server/domains/video/providers/replicate/adapter.ts';
import { closeServer, listen, sendJson, allowList } from '../http.ts';
import { shapedVideo } from '../video/shape.ts';
import { handleApi, MODELS } from './api.ts';
import { FAIL_ERROR, POLICY_ERROR } from './predictions.ts';
import type { FakeState, ReplicateFake } from './types.ts';
import { deliverWebhook, handleDelivery, signedWebhook } from './webhooks.ts';

export type { ReplicateFake, ReplicateFakeRequest } from './types.ts';

/** Starts a fake Replicate API and output host on 127.0.0.1 with random ports. */
export async function startReplicateFake(
  opts: { pollsUntilDone?: number; token?: string } = {},
): Promise<ReplicateFake> {
  let clockOffset = 0;
  const api = createServer((req, res) => {
    handleApi(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: `fake error: ${String(err)}` });
    });
  });
  const delivery = createServer((req, res) => {
    handleDelivery(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  const apiOrigin = (await listen(api)).url;
  const deliveryUrl = (await listen(delivery)).url;
  const url = `${apiOrigin}/v1`;
  const allowed = allowList(apiOrigin, deliveryUrl);
  const token = opts.token ?? `r8_${randomBytes(20).toString('base64url')}`;

  const fake: ReplicateFake = {
    provider: 'replicate',
    outbound: allowed.policy,
    url,
    deliveryUrl,
    token,
    webhookSecret: `whsec_${randomBytes(24).toString('base64')}`,
    env: {
      REPLICATE_API_TOKEN: token,
      REPLICATE_API_URL: url,
      OUTBOUND_ALLOW_HOSTS: allowed.env,
    },
    models: { text: 'google/veo-3.1', image: 'google/veo-3.1-fast' },
    versions: Object.fromEntries(
      MODELS.map((model) => [model, createHash('sha256').update(model).digest('hex')]),
    ),
    policyError: POLICY_ERROR,
    failError: FAIL_ERROR,
    jobs: [],
    requests: [],
    pollsUntilDone: opts.pollsUntilDone ?? 1,
    submitDelayMs: 0,
    video: (shape) => shapedVideo(shape),

    createAdapter(adapterOpts = {}) {
      return createReplicateProvider({
        token,
        apiUrl: url,
        outbound: allowed.policy,
        ...(adapterOpts.retry ? { retry: adapterOpts.retry } : {}),
        ...(adapterOpts.fetchImpl ? { fetchImpl: adapterOpts.fetchImpl } : {}),
      });
    },

    failSubmits(count, failure) {
      state.submitFailures = { count, failure };
    },

    advance(ms) {
      clockOffset += ms;
    },

    expireFiles() {
      state.files.clear();
    },

    signedWebhook: (requestId, webhookOpts) => signedWebhook(state, requestId, webhookOpts),
    deliverWebhook: (requestId, webhookOpts) => deliverWebhook(state, requestId, webhookOpts),

    async close() {
      for (const timer of state.timers) clearTimeout(timer);
      state.timers.clear();
      await Promise.all([closeServer(api), closeServer(delivery)]);
    },
  };
  const state: FakeState = {
    fake,
    now: () => Date.now() + clockOffset,
    jobs: new Map(),
    files: new Map(),
    submitFailures: { count: 0, failure: { status: 500 } },
    timers: new Set(),
  };
  return fake;
}
