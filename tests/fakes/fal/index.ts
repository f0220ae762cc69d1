/**
 * A local fal.ai that speaks the queue API's wire format over real HTTP, so the production
 * adapter (server/domains/video/providers/fal/adapter.ts) is what tests exercise:
 * - the queue (queue.ts): `POST /{endpoint id}` for the current Veo 3.1 endpoints only (404 for
 *   others), 401 without the key; status, result and cancel under `/{owner}/{alias}/requests/{id}`
 *   without the endpoint's sub-path; IN_QUEUE (with queue_position) → IN_PROGRESS → COMPLETED
 *   over `pollsUntilDone` status checks; the input checked as fal's validation does
 *   (request-body.ts), its 422 served as the job's result;
 * - the CDN serving finished videos and the REST host serving the webhook JWKS (public.ts), each
 *   on its own origin, so tests can see our key never goes there;
 * - signed completion webhooks (webhook.ts), with an Ed25519 key the fake generates.
 * Outcomes come from prompt markers (tests/fakes/video/control.ts): `[policy]` is fal's 422
 * `content_policy_violation` on the result, `[fail]` a downstream 500, `[hang]` never finishes.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createFalProvider } from '../../../server/domains/video/providers/fal/adapter.ts';
import { closeServer, listen, sendJson, allowList } from '../http.ts';
import { shapedVideo } from '../video/shape.ts';
import { handleCdn, handleRest } from './public.ts';
import { FAILURE_MESSAGE, handleQueue, POLICY_MESSAGE } from './queue.ts';
import { newKeyPair, type FalState } from './state.ts';
import type { FalFake } from './types.ts';
import { deliverWebhook, signedWebhook } from './webhook.ts';

export type { FalFake, FalRequestLog, FalWebhookOptions } from './types.ts';

const serve = (
  state: FalState,
  handle: (state: FalState, req: IncomingMessage, res: ServerResponse) => Promise<void> | void,
): Server =>
  createServer((req, res) => {
    Promise.resolve(handle(state, req, res)).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { detail: String(err) });
    });
  });

/**
 * Starts a fake fal (queue, CDN and REST hosts) on 127.0.0.1 with random ports. `now` is the
 * clock webhooks are signed with, and the adapter from `createAdapter` checks them with.
 */
export async function startFalFake(
  opts: { pollsUntilDone?: number; now?: () => number } = {},
): Promise<FalFake> {
  const now = opts.now ?? Date.now;
  // The fake itself needs the servers' URLs, so it joins the state once they listen.
  const state: FalState = {
    fake: undefined as unknown as FalFake,
    now,
    jobs: new Map(),
    files: new Map(),
    submitFailures: [],
    stalls: 0,
    signingKey: newKeyPair(),
    decoyKey: newKeyPair().publicKey,
    userId: `user_${randomBytes(6).toString('hex')}`,
  };
  const queue = serve(state, handleQueue);
  const cdn = serve(state, handleCdn);
  const rest = serve(state, handleRest);
  const [queueUrl, cdnUrl, restUrl] = await Promise.all([listen(queue), listen(cdn), listen(rest)]);
  const key = `${randomUUID()}:${randomBytes(16).toString('hex')}`;
  const jwksUrl = `${restUrl.url}/.well-known/jwks.json`;
  const allowed = allowList(queueUrl.url, cdnUrl.url, restUrl.url);

  const fake: FalFake = {
    provider: 'fal',
    outbound: allowed.policy,
    url: queueUrl.url,
    cdnUrl: cdnUrl.url,
    jwksUrl,
    key,
    env: {
      FAL_KEY: key,
      FAL_QUEUE_URL: queueUrl.url,
      FAL_JWKS_URL: jwksUrl,
      FAL_USER_ID: state.userId,
      OUTBOUND_ALLOW_HOSTS: allowed.env,
    },
    models: { text: 'fal-ai/veo3.1', image: 'fal-ai/veo3.1/image-to-video' },
    jobs: [],
    requests: [],
    pollsUntilDone: opts.pollsUntilDone ?? 1,
    video: (shape) => shapedVideo(shape),
    policyMessage: POLICY_MESSAGE,
    resultUrl: null,
    failureMessage: FAILURE_MESSAGE,

    createAdapter: (adapterOpts = {}) =>
      createFalProvider({
        key,
        queueUrl: queueUrl.url,
        jwksUrl,
        now,
        userId: state.userId,
        outbound: allowed.policy,
        ...adapterOpts,
      }),
    failSubmits(count, failure) {
      for (let i = 0; i < count; i += 1) state.submitFailures.push(failure);
    },
    stallSubmits(count) {
      state.stalls += count;
    },
    rotateWebhookKey() {
      state.signingKey = newKeyPair();
    },
    signedWebhook: (requestId, webhookOpts) => signedWebhook(state, requestId, webhookOpts),
    deliverWebhook: (requestId, webhookOpts) => deliverWebhook(state, requestId, webhookOpts),
    async close() {
      await Promise.all([closeServer(queue), closeServer(cdn), closeServer(rest)]);
    },
  };
  state.fake = fake;
  return fake;
}
