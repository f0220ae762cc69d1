/** Vertex AI's Veo models: the descriptor PROVIDERS registers (./adapter.ts speaks the wire). */
import { defineProvider, trimSlash } from '../descriptor.ts';
import { VERTEX_ROUTE_MODELS, vertexBilledModel, vertexModelCapabilities } from './models.ts';
import { DEFAULT_STORAGE_URL } from './wire.ts';

export const vertex = defineProvider({
  name: 'vertex',
  title: 'Vertex AI',
  env: [
    {
      name: 'GOOGLE_CLOUD_PROJECT',
      secret: false,
      default: '',
      description: 'Vertex AI project, needed by `vertex:` routes',
    },
    {
      name: 'GOOGLE_CLOUD_LOCATION',
      secret: false,
      default: 'us-central1',
      description: 'Vertex AI region with Veo, needed by `vertex:` routes',
    },
    {
      name: 'GOOGLE_APPLICATION_CREDENTIALS',
      secret: true,
      default: '',
      description: 'path of the service-account key file (JSON) `vertex:` routes sign in with',
    },
    {
      name: 'VERTEX_OUTPUT_GCS_URI',
      secret: false,
      default: '',
      description:
        '`gs://bucket/prefix/` for Vertex to write videos to (the service account must read it); empty: videos come back inline',
    },
    {
      name: 'VERTEX_API_URL',
      secret: false,
      default: '',
      description: "Vertex AI's API (empty: the region's own host); only to point at a test double",
      testDouble: true,
    },
    {
      name: 'VERTEX_STORAGE_URL',
      secret: false,
      default: DEFAULT_STORAGE_URL,
      description: "Cloud Storage's JSON API; only to point at a test double",
      testDouble: true,
    },
  ],
  localOnly: false,
  isModelId: (model) => /^[a-z0-9][a-z0-9.-]*$/.test(model),
  requires: ['GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_APPLICATION_CREDENTIALS'],
  // ./wire.ts: 8 s with audio in the options' shape (./models.ts: what each model can do). Vertex
  // has no cancel binding for Veo operations (./adapter.ts: cancel is a no-op) and no webhooks.
  capabilities: { cancel: false, webhooks: false },
  modelCapabilities: vertexModelCapabilities,
  routeModels: VERTEX_ROUTE_MODELS,
  billedModel: vertexBilledModel,
  metricsLabel: 'vertex',
  expectedMs: 3 * 60_000,
  describe: (model) => `vertex (${model})`,
  settings: (env) => ({
    project: env.GOOGLE_CLOUD_PROJECT ?? '',
    location: env.GOOGLE_CLOUD_LOCATION ?? '',
    keyFile: env.GOOGLE_APPLICATION_CREDENTIALS || null,
    apiUrl: env.VERTEX_API_URL ? trimSlash(env.VERTEX_API_URL) : null,
    storageUrl: trimSlash(env.VERTEX_STORAGE_URL ?? ''),
    outputGcsUri: env.VERTEX_OUTPUT_GCS_URI || null,
  }),
  configured: (s) => s.project !== '' && s.keyFile !== null,
  create: async (s, { outbound, maxResultBytes }) =>
    (await import('./adapter.ts')).createVertexProvider({
      outbound,
      maxResultBytes,
      project: s.project,
      location: s.location,
      // configured() or the route check made sure it is set.
      keyFile: s.keyFile ?? '',
      storageUrl: s.storageUrl,
      ...(s.apiUrl ? { apiUrl: s.apiUrl } : {}),
      ...(s.outputGcsUri ? { outputGcsUri: s.outputGcsUri } : {}),
    }),
});
