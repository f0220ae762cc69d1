/**
 * Video settings: which provider and model serve each mode (`VIDEO_ROUTE_TEXT`,
 * `VIDEO_ROUTE_IMAGE`, ordered `provider:model-id` lists tried in turn while a provider does not
 * accept the job), each provider's credentials, and the worker's knobs. Read once by loadConfig;
 * a malformed route, an unknown provider or a route without its credentials stops the start,
 * naming the variable to fix.
 */
import { Type, type Static } from 'typebox';

export const PROVIDER_NAMES = ['local', 'fal', 'replicate', 'vertex', 'gemini'] as const;
export type VideoProviderName = (typeof PROVIDER_NAMES)[number];

export interface RouteEntry {
  provider: VideoProviderName;
  /** The provider's own model id (`fal-ai/veo3.1`, `google/veo-3.1`, `veo-3.1-generate-001`…). */
  model: string;
}

export const VideoEnvSchema = {
  VIDEO_ROUTE_TEXT: Type.String({ default: 'local:local' }),
  VIDEO_ROUTE_IMAGE: Type.String({ default: 'local:local' }),
  /** Public origin providers POST completion webhooks to (default PUBLIC_SITE_URL in production). */
  VIDEO_WEBHOOK_BASE: Type.String({ default: '' }),
  FAL_KEY: Type.String({ default: '' }),
  FAL_QUEUE_URL: Type.String({ default: 'https://queue.fal.run' }),
  FAL_JWKS_URL: Type.String({ default: 'https://rest.alpha.fal.ai/.well-known/jwks.json' }),
  REPLICATE_API_TOKEN: Type.String({ default: '' }),
  REPLICATE_API_URL: Type.String({ default: 'https://api.replicate.com/v1' }),
  REPLICATE_WEBHOOK_SECRET: Type.String({ default: '' }),
  GOOGLE_CLOUD_PROJECT: Type.String({ default: '' }),
  GOOGLE_CLOUD_LOCATION: Type.String({ default: 'us-central1' }),
  GOOGLE_APPLICATION_CREDENTIALS: Type.String({ default: '' }),
  VERTEX_API_URL: Type.String({ default: '' }),
  VERTEX_STORAGE_URL: Type.String({ default: 'https://storage.googleapis.com' }),
  VERTEX_OUTPUT_GCS_URI: Type.String({ default: '' }),
  GEMINI_API_KEY: Type.String({ default: '' }),
  GEMINI_API_BASE: Type.String({ default: 'https://generativelanguage.googleapis.com' }),
  VIDEO_DEADLINE_MINUTES: Type.Integer({ minimum: 1, maximum: 24 * 60, default: 20 }),
  VIDEO_WORKER: Type.Union([Type.Literal('inline'), Type.Literal('off')], { default: 'inline' }),
  VIDEO_WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  VIDEO_LEASE_SECONDS: Type.Integer({ minimum: 2, maximum: 600, default: 30 }),
  VIDEO_POLL_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 0 }),
  /** Submit failures in a row after which a provider is skipped for VIDEO_BREAKER_SECONDS. */
  VIDEO_BREAKER_FAILURES: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  VIDEO_BREAKER_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 120 }),
  LOCAL_RENDER_FAIL_PATTERN: Type.String({ default: '' }),
};

const VideoEnv = Type.Object(VideoEnvSchema);
type VideoEnv = Static<typeof VideoEnv>;

export interface VideoConfig {
  routes: { text: RouteEntry[]; image: RouteEntry[] };
  /** Origin for webhook URLs; null: poll only. */
  webhookBase: string | null;
  fal: { key: string; queueUrl: string; jwksUrl: string };
  replicate: { token: string; apiUrl: string; webhookSecret: string | null };
  vertex: {
    project: string;
    location: string;
    keyFile: string | null;
    apiUrl: string | null;
    storageUrl: string;
    outputGcsUri: string | null;
  };
  gemini: { apiKey: string; apiBase: string };
  deadlineMs: number;
  /** inline: `npm start` runs the worker in-process; off: only `npm run worker` does. */
  worker: 'inline' | 'off';
  /** Tasks one worker process drives at once (each mostly waits on its provider). */
  concurrency: number;
  /** How long a claimed task stays a worker's without a renewal (a crashed worker's expires). */
  leaseMs: number;
  /** Pause between status checks of a job; 0: the provider's default. */
  pollMs: number;
  breaker: { failures: number; openMs: number };
  /** Local renderer only: prompts matching this fail on purpose, to try the failure path. */
  localFailPattern: RegExp | null;
}

/** What each provider needs, by variable name (start-up names the first one missing). */
const CREDENTIALS: Record<VideoProviderName, (env: VideoEnv) => Array<[string, string]>> = {
  local: () => [],
  fal: (env) => [['FAL_KEY', env.FAL_KEY]],
  replicate: (env) => [['REPLICATE_API_TOKEN', env.REPLICATE_API_TOKEN]],
  vertex: (env) => [
    ['GOOGLE_CLOUD_PROJECT', env.GOOGLE_CLOUD_PROJECT],
    ['GOOGLE_CLOUD_LOCATION', env.GOOGLE_CLOUD_LOCATION],
    ['GOOGLE_APPLICATION_CREDENTIALS', env.GOOGLE_APPLICATION_CREDENTIALS],
  ],
  gemini: (env) => [['GEMINI_API_KEY', env.GEMINI_API_KEY]],
};

/** Model ids as each provider spells them; anything else is a typo caught at start. */
const MODEL_ID: Record<VideoProviderName, RegExp> = {
  local: /^local$/,
  fal: /^[a-z0-9][\w.-]*(\/[\w.-]+)+$/i,
  replicate: /^[a-z0-9][\w.-]*\/[\w.-]+(:[0-9a-f]{64})?$/i,
  vertex: /^[a-z0-9][a-z0-9.-]*$/,
  gemini: /^[a-z0-9][a-z0-9.-]*$/,
};

/** Parses one route variable; throws a message naming it and the bad entry. */
export function parseRoute(variable: string, value: string): RouteEntry[] {
  const entries = value
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) {
    throw new Error(`${variable} is empty: give at least one provider:model-id entry.`);
  }
  const seen = new Set<string>();
  return entries.map((entry) => {
    const colon = entry.indexOf(':');
    const provider = entry.slice(0, colon).trim();
    const model = entry.slice(colon + 1).trim();
    if (colon < 1 || !model) {
      throw new Error(
        `${variable}: "${entry}" is not provider:model-id (e.g. fal:fal-ai/veo3.1,vertex:veo-3.1-generate-001).`,
      );
    }
    if (!(PROVIDER_NAMES as readonly string[]).includes(provider)) {
      throw new Error(
        `${variable}: unknown provider "${provider}" in "${entry}". Use one of ${PROVIDER_NAMES.join(', ')}.`,
      );
    }
    const name = provider as VideoProviderName;
    if (!MODEL_ID[name].test(model)) {
      throw new Error(`${variable}: "${model}" is not a ${name} model id (in "${entry}").`);
    }
    if (seen.has(entry)) throw new Error(`${variable}: "${entry}" is listed twice.`);
    seen.add(entry);
    return { provider: name, model };
  });
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Builds the video settings; throws (with the variable's name) on anything start-up refuses. */
export function videoConfig(env: VideoEnv, fallbackWebhookBase: string | null): VideoConfig {
  const routes = {
    text: parseRoute('VIDEO_ROUTE_TEXT', env.VIDEO_ROUTE_TEXT),
    image: parseRoute('VIDEO_ROUTE_IMAGE', env.VIDEO_ROUTE_IMAGE),
  };
  for (const [variable, route] of [
    ['VIDEO_ROUTE_TEXT', routes.text],
    ['VIDEO_ROUTE_IMAGE', routes.image],
  ] as const) {
    for (const { provider } of route) {
      for (const [name, value] of CREDENTIALS[provider](env)) {
        if (!value.trim()) {
          throw new Error(`${variable} routes to ${provider}, which needs ${name}. Set ${name}.`);
        }
      }
    }
  }
  return {
    routes,
    webhookBase: env.VIDEO_WEBHOOK_BASE ? trimSlash(env.VIDEO_WEBHOOK_BASE) : fallbackWebhookBase,
    fal: {
      key: env.FAL_KEY,
      queueUrl: trimSlash(env.FAL_QUEUE_URL),
      jwksUrl: env.FAL_JWKS_URL,
    },
    replicate: {
      token: env.REPLICATE_API_TOKEN,
      apiUrl: trimSlash(env.REPLICATE_API_URL),
      webhookSecret: env.REPLICATE_WEBHOOK_SECRET || null,
    },
    vertex: {
      project: env.GOOGLE_CLOUD_PROJECT,
      location: env.GOOGLE_CLOUD_LOCATION,
      keyFile: env.GOOGLE_APPLICATION_CREDENTIALS || null,
      apiUrl: env.VERTEX_API_URL ? trimSlash(env.VERTEX_API_URL) : null,
      storageUrl: trimSlash(env.VERTEX_STORAGE_URL),
      outputGcsUri: env.VERTEX_OUTPUT_GCS_URI || null,
    },
    gemini: { apiKey: env.GEMINI_API_KEY, apiBase: trimSlash(env.GEMINI_API_BASE) },
    deadlineMs: env.VIDEO_DEADLINE_MINUTES * 60_000,
    worker: env.VIDEO_WORKER,
    concurrency: env.VIDEO_WORKER_CONCURRENCY,
    leaseMs: env.VIDEO_LEASE_SECONDS * 1000,
    pollMs: env.VIDEO_POLL_MS,
    breaker: { failures: env.VIDEO_BREAKER_FAILURES, openMs: env.VIDEO_BREAKER_SECONDS * 1000 },
    localFailPattern: env.LOCAL_RENDER_FAIL_PATTERN
      ? new RegExp(env.LOCAL_RENDER_FAIL_PATTERN)
      : null,
  };
}

/** The providers any route names (each gets one adapter). */
export const routedProviders = (video: VideoConfig): Set<VideoProviderName> =>
  new Set([...video.routes.text, ...video.routes.image].map((e) => e.provider));

/** "fal (fal-ai/veo3.1), vertex (…)" for start-up lines. */
export const describeRoute = (route: RouteEntry[]): string =>
  route
    .map((e) => (e.provider === 'local' ? 'local (ffmpeg renderer)' : `${e.provider} (${e.model})`))
    .join(' → ');
