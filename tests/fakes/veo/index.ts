/**
 * A local Gemini API that speaks Veo's wire format over real HTTP, so the production adapter in
 * server/domains/video/providers/gemini-veo.ts is what tests exercise:
 * - `POST /v1beta/models/{model}:predictLongRunning` (strict body check, Google's error JSON),
 * - `GET /v1beta/models/{model}/operations/{id}` (done after `pollsUntilDone` polls),
 * - `GET /v1beta/files/{id}:download?alt=media`, which needs the key and redirects, like Google's,
 *   to a signed URL on a second server (another origin, so tests can see the key never goes there).
 * The served video is a real 1-second MP4 made once per process with @ffmpeg-installer/ffmpeg;
 * if that binary is missing we serve a bare `ftyp` box instead (`videoIsReal` says which).
 *
 * Modules: api.ts (the key check and routing), operations.ts, files.ts (download and storage),
 * request-body.ts (the body check), video.ts (the served video), errors.ts, state.ts.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { closeServer, listen, sendJson } from '../http.ts';
import { handleApi } from './api.ts';
import { googleError } from './errors.ts';
import { handleStorage } from './files.ts';
import { OPERATION_ERROR_MESSAGE, RAI_REASON } from './operations.ts';
import type { VeoState } from './state.ts';
import type { VeoFake } from './types.ts';
import { testVideo } from './video.ts';

export type { VeoFake, VeoFakeRequest, VeoScenario } from './types.ts';

/** Starts a fake Gemini API (and its storage host) on 127.0.0.1 with random ports. */
export async function startVeoFake(
  opts: { apiKey?: string; pollsUntilDone?: number; models?: string[] } = {},
): Promise<VeoFake> {
  const { video, real } = await testVideo();
  const scenarios: VeoState['scenarios'] = {
    byPrompt: new Map(),
    byModel: new Map(),
    default: 'success',
  };
  const api = createServer((req, res) => {
    handleApi(state, req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, googleError(500, 'INTERNAL', String(err)));
    });
  });
  const storage = createServer((req, res) => handleStorage(state, req, res));

  const fake: VeoFake = {
    url: (await listen(api)).url,
    storageUrl: (await listen(storage)).url,
    apiKey: opts.apiKey ?? `AIzaSy${randomBytes(16).toString('base64url')}`,
    requests: [],
    video,
    videoIsReal: real,
    pollsUntilDone: opts.pollsUntilDone ?? 2,
    flakyFailures: 1,
    retryAfterSeconds: null,
    raiReason: RAI_REASON,
    operationErrorMessage: OPERATION_ERROR_MESSAGE,

    setScenario(scenario, target) {
      if (target?.prompt !== undefined) scenarios.byPrompt.set(target.prompt, scenario);
      else if (target?.model !== undefined) scenarios.byModel.set(target.model, scenario);
      else scenarios.default = scenario;
    },

    async close() {
      await Promise.all([closeServer(api), closeServer(storage)]);
    },
  };
  const state: VeoState = {
    fake,
    knownModels: opts.models ? new Set(opts.models) : null,
    jobs: new Map(),
    files: new Map(),
    signed: new Set(),
    scenarios,
    submitFailures: new Map(),
  };
  return fake;
}
