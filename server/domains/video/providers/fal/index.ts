/** fal.ai's queue (Veo 3.1 endpoints): the descriptor PROVIDERS registers (./adapter.ts speaks the wire). */
import { defineProvider, trimSlash } from '../descriptor.ts';
import { FAL_ROUTE_MODELS, falBilledModel, falModelCapabilities } from './models.ts';
import { DEFAULT_FAL_JWKS_URL, DEFAULT_FAL_QUEUE_URL } from './wire.ts';

export const fal = defineProvider({
  name: 'fal',
  title: 'fal.ai queue',
  env: [
    {
      name: 'FAL_KEY',
      secret: true,
      default: '',
      description: 'fal.ai API key (`key_id:key_secret`), needed by `fal:` routes',
    },
    {
      name: 'FAL_USER_ID',
      secret: false,
      default: '',
      description:
        "your fal account's user id (the `x-fal-webhook-user-id` of your webhooks), needed by `fal:` routes when webhooks are on",
    },
    {
      name: 'FAL_QUEUE_URL',
      secret: false,
      default: DEFAULT_FAL_QUEUE_URL,
      description: "fal's queue API; only to point at a test double",
      testDouble: true,
    },
    {
      name: 'FAL_JWKS_URL',
      secret: false,
      default: DEFAULT_FAL_JWKS_URL,
      description: 'where fal publishes its webhook signing keys; only to point at a test double',
      testDouble: true,
    },
  ],
  localOnly: false,
  // Endpoint ids: owner/app with one or more path parts (`fal-ai/veo3.1/image-to-video`).
  isModelId: (model) => /^[a-z0-9][\w.-]*(\/[\w.-]+)+$/i.test(model),
  requires: ['FAL_KEY'],
  requiresForWebhooks: ['FAL_USER_ID'],
  // ./wire.ts submitBody: 8 s with audio in the options' shape; images and the source video as
  // data URIs; ./models.ts picks the endpoint (fast, first-last-frame, reference, extend).
  capabilities: { cancel: true, webhooks: true },
  modelCapabilities: falModelCapabilities,
  routeModels: FAL_ROUTE_MODELS,
  billedModel: falBilledModel,
  metricsLabel: 'fal',
  expectedMs: 3 * 60_000,
  describe: (model) => `fal (${model})`,
  settings: (env) => ({
    key: env.FAL_KEY ?? '',
    userId: env.FAL_USER_ID ?? '',
    queueUrl: trimSlash(env.FAL_QUEUE_URL ?? ''),
    jwksUrl: env.FAL_JWKS_URL ?? '',
  }),
  configured: (s) => s.key !== '',
  create: async (s, { outbound, maxResultBytes }) =>
    (await import('./adapter.ts')).createFalProvider({ ...s, outbound, maxResultBytes }),
});
