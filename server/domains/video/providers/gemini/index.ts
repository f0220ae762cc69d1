/** The Gemini API's Interactions (Gemini Omni video): the descriptor PROVIDERS registers. */
import { defineProvider, trimSlash } from '../descriptor.ts';
import { GEMINI_ROUTE_MODELS, geminiModelCapabilities } from './models.ts';
import { DEFAULT_GEMINI_API_BASE } from './wire.ts';

export const gemini = defineProvider({
  name: 'gemini',
  title: 'Gemini API, Interactions',
  env: [
    {
      name: 'GEMINI_API_KEY',
      secret: true,
      default: '',
      description: 'Gemini API key, needed by `gemini:` routes (Gemini Omni video)',
    },
    {
      name: 'GEMINI_API_BASE',
      secret: false,
      default: DEFAULT_GEMINI_API_BASE,
      description: 'the Gemini API; only to point at a test double',
      testDouble: true,
    },
  ],
  localOnly: false,
  isModelId: (model) => /^[a-z0-9][a-z0-9.-]*$/.test(model),
  requires: ['GEMINI_API_KEY'],
  // ./wire.ts createInteractionBody: 8 s in the options' shape; ./models.ts: what Omni takes
  // (no negative prompt, last frame, fast tier or extension); polling only.
  capabilities: { cancel: true, webhooks: false },
  modelCapabilities: geminiModelCapabilities,
  routeModels: GEMINI_ROUTE_MODELS,
  // One model per tier (Omni has no fast one): a job bills as its route's model.
  billedModel: (model) => model,
  metricsLabel: 'gemini',
  expectedMs: 3 * 60_000,
  describe: (model) => `gemini (${model})`,
  settings: (env) => ({
    apiKey: env.GEMINI_API_KEY ?? '',
    apiBase: trimSlash(env.GEMINI_API_BASE ?? ''),
  }),
  configured: (s) => s.apiKey !== '',
  create: async (s, { outbound, maxResultBytes }) =>
    (await import('./adapter.ts')).createGeminiProvider({ ...s, outbound, maxResultBytes }),
});
