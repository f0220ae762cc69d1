/** Replicate predictions (google/veo-3.1…): the descriptor PROVIDERS registers (./adapter.ts speaks the wire). */
import { defineProvider, trimSlash } from '../descriptor.ts';
import {
  REPLICATE_ROUTE_MODELS,
  replicateBilledModel,
  replicateModelCapabilities,
} from './models.ts';
import { DEFAULT_REPLICATE_API_URL } from './wire.ts';

export const replicate = defineProvider({
  name: 'replicate',
  title: 'Replicate predictions',
  env: [
    {
      name: 'REPLICATE_API_TOKEN',
      secret: true,
      default: '',
      description: 'Replicate API token, needed by `replicate:` routes',
    },
    {
      name: 'REPLICATE_WEBHOOK_SECRET',
      secret: true,
      default: '',
      description:
        "the account's `whsec_…` webhook signing secret (empty: fetched from Replicate once)",
    },
    {
      name: 'REPLICATE_API_URL',
      secret: false,
      default: DEFAULT_REPLICATE_API_URL,
      description: "Replicate's API; only to point at a test double",
      testDouble: true,
    },
  ],
  localOnly: false,
  // owner/name, optionally pinned to a version: owner/name:<64 hex digits>.
  isModelId: (model) => /^[a-z0-9][\w.-]*\/[\w.-]+(:[0-9a-f]{64})?$/i.test(model),
  requires: ['REPLICATE_API_TOKEN'],
  // ./wire.ts: 8 s with audio in the options' shape; images as data URIs; Cancel-After + cancel.
  // ./models.ts: the fast tier runs on google/veo-3.1-fast; no extension (no video input).
  capabilities: { cancel: true, webhooks: true },
  modelCapabilities: replicateModelCapabilities,
  routeModels: REPLICATE_ROUTE_MODELS,
  billedModel: replicateBilledModel,
  metricsLabel: 'replicate',
  expectedMs: 3 * 60_000,
  describe: (model) => `replicate (${model})`,
  settings: (env) => ({
    token: env.REPLICATE_API_TOKEN ?? '',
    apiUrl: trimSlash(env.REPLICATE_API_URL ?? ''),
    webhookSecret: env.REPLICATE_WEBHOOK_SECRET || null,
  }),
  configured: (s) => s.token !== '',
  create: async (s, { outbound, maxResultBytes }) =>
    (await import('./adapter.ts')).createReplicateProvider({
      outbound,
      maxResultBytes,
      token: s.token,
      apiUrl: s.apiUrl,
      ...(s.webhookSecret ? { webhookSecret: s.webhookSecret } : {}),
    }),
});
