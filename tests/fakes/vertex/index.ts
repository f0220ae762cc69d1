/**
 * A local Vertex AI (Veo 3.1) over real HTTP, so the production adapter in
 * server/domains/video/providers/vertex/adapter.ts, with google-auth-library doing the real OAuth
 * JWT-bearer exchange, is what tests exercise:
 * - a service-account key file with a fresh RSA key, whose `token_uri` is the fake's token
 *   endpoint; the endpoint verifies the RS256 assertion and issues access tokens (auth.ts);
 * - `:predictLongRunning` with a strict body check and Google's error JSON, 404 for models other
 *   than the current 3.1 ids, and `:fetchPredictOperation`, done after `pollsUntilDone` reads
 *   (operations.ts, request-body.ts);
 * - results inline as base64, or as `gs://` objects (with `{ gcs: true }` or when the submit
 *   sends storageUri) read through a Cloud Storage JSON API route that needs the token;
 * - markers `[policy]` (safety-filtered result, or a 400 with `policyOnSubmit`), `[fail]` (done
 *   with an error), `[hang]`; `failSubmits` (429 RESOURCE_EXHAUSTED with Retry-After and
 *   RetryInfo, or 5xx) and `stallSubmits` (the job is made, the answer never comes).
 * No cancel (Vertex has none for Veo operations) and no webhooks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createVertexProvider } from '../../../server/domains/video/providers/vertex/adapter.ts';
import { closeServer, listen, allowList } from '../http.ts';
import { shapedVideo } from '../video/shape.ts';
import { writeServiceAccountKey } from './auth.ts';
import { createServers } from './servers.ts';
import type { VertexFake, VertexFakeOptions, VertexState } from './types.ts';

export { CURRENT_MODELS, FAILURE_MESSAGE, RAI_REASON } from './operations.ts';
export type { VertexFake, VertexFakeOptions, VertexFakeRequest } from './types.ts';

/** Starts a fake Vertex AI (and its token, storage and `elsewhere` hosts) on 127.0.0.1. */
export async function startVertexFake(opts: VertexFakeOptions = {}): Promise<VertexFake> {
  const project = opts.project ?? `veo-test-${randomBytes(3).toString('hex')}`;
  const location = opts.location ?? 'us-central1';
  const dir = await mkdtemp(join(tmpdir(), 'vertex-fake-'));
  // The servers read `state` only when requests come, after it is assigned below.
  const state = {} as VertexState;
  const servers = createServers(state);
  const [api, token, storage, elsewhere] = await Promise.all([
    listen(servers.api),
    listen(servers.token),
    listen(servers.storage),
    listen(servers.elsewhere),
  ]);
  const clientEmail = `veo-worker@${project}.iam.gserviceaccount.com`;
  const tokenUrl = `${token.url}/token`;
  const allowed = allowList(api.url, token.url, storage.url, elsewhere.url);
  const key = await writeServiceAccountKey(dir, { project, clientEmail, tokenUrl });

  const fake: VertexFake = {
    provider: 'vertex',
    outbound: allowed.policy,
    url: api.url,
    storageUrl: storage.url,
    tokenUrl,
    elsewhereUrl: elsewhere.url,
    keyFile: key.path,
    clientEmail,
    project,
    location,
    env: {
      GOOGLE_CLOUD_PROJECT: project,
      GOOGLE_CLOUD_LOCATION: location,
      GOOGLE_APPLICATION_CREDENTIALS: key.path,
      VERTEX_API_URL: api.url,
      VERTEX_STORAGE_URL: storage.url,
      OUTBOUND_ALLOW_HOSTS: allowed.env,
    },
    models: { text: 'veo-3.1-generate-001', image: 'veo-3.1-fast-generate-001' },
    createAdapter: (adapterOpts = {}) =>
      createVertexProvider({
        project,
        location,
        apiUrl: api.url,
        storageUrl: storage.url,
        keyFile: key.path,
        outbound: allowed.policy,
        retry: adapterOpts.retry,
        fetchImpl: adapterOpts.fetchImpl,
      }),
    jobs: [],
    requests: [],
    issuedTokens: [],
    pollsUntilDone: opts.pollsUntilDone ?? 1,
    video: (shape) => shapedVideo(shape),
    gcs: opts.gcs ?? false,
    policyOnSubmit: false,
    redirectMedia: false,
    failSubmits(count, failure) {
      if (count > 0) state.failures.push({ left: count, failure });
    },
    stallSubmits(count) {
      state.stalls += count;
    },
    async close() {
      for (const res of state.stalled) res.destroy();
      await Promise.all(Object.values(servers).map((server) => closeServer(server)));
      await rm(dir, { recursive: true, force: true });
    },
  };
  Object.assign(state, {
    fake,
    publicKey: key.publicKey,
    tokens: new Set<string>(),
    jobs: new Map(),
    objects: new Map(),
    failures: [],
    stalls: 0,
    stalled: [],
  } satisfies VertexState);
  return fake;
}
