/**
 * Video settings: which provider and model serve each mode (`VIDEO_ROUTE_TEXT`,
 * `VIDEO_ROUTE_IMAGE`, ordered `provider:model-id` lists tried in turn while a provider does not
 * accept the job), each provider's credentials, and the worker's knobs. Read once by loadConfig;
 * a malformed route, an unknown provider or a route without its credentials stops the start,
 * naming the variable to fix.
 */
import { Type, type Static, type TObject } from 'typebox';
import { providerEnv } from './domains/video/providers/descriptor.ts';
import {
  PROVIDER_NAMES,
  PROVIDERS,
  providerByName,
  type VideoProviderName,
} from './domains/video/providers/index.ts';

export interface RouteEntry {
  provider: VideoProviderName;
  /** The provider's own model id (`fal-ai/veo3.1`, `google/veo-3.1`, `veo-3.1-generate-001`…). */
  model: string;
}

/**
 * Every variable the providers declare (providers/<name>/index.ts), all strings. Typed as no
 * keys: only each provider's descriptor reads its own, by name (providerEnv), so the rest of the
 * config keeps its exact types.
 */
const ProviderEnvSchema = Object.fromEntries(
  PROVIDERS.flatMap((p) => p.env.map((v) => [v.name, Type.String({ default: v.default })])),
) as Record<never, never>;

export const VideoEnvSchema = {
  VIDEO_ROUTE_TEXT: Type.String({ default: 'local:local' }),
  VIDEO_ROUTE_IMAGE: Type.String({ default: 'local:local' }),
  /**
   * ordered: each route as written; cheapest: the capable entries cheapest first for the video
   * asked (content/provider-costs.json), equal costs by the last hour's p95 time (issue 37).
   */
  VIDEO_ROUTE_POLICY: Type.Union([Type.Literal('ordered'), Type.Literal('cheapest')], {
    default: 'ordered',
  }),
  /** Route entries whose video would cost more (USD) are not used; empty: no cap. */
  VIDEO_MAX_COST_USD: Type.String({ default: '' }),
  /** Public origin providers POST completion webhooks to (default PUBLIC_SITE_URL in production). */
  VIDEO_WEBHOOK_BASE: Type.String({ default: '' }),
  ...ProviderEnvSchema,
  VIDEO_DEADLINE_MINUTES: Type.Integer({ minimum: 1, maximum: 24 * 60, default: 20 }),
  VIDEO_WORKER: Type.Union([Type.Literal('inline'), Type.Literal('off')], { default: 'inline' }),
  VIDEO_WORKER_CONCURRENCY: Type.Integer({ minimum: 1, maximum: 64, default: 2 }),
  VIDEO_LEASE_SECONDS: Type.Integer({ minimum: 2, maximum: 600, default: 30 }),
  VIDEO_POLL_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 0 }),
  /** Submit failures in a row after which a provider is skipped for VIDEO_BREAKER_SECONDS. */
  VIDEO_BREAKER_FAILURES: Type.Integer({ minimum: 1, maximum: 1000, default: 5 }),
  VIDEO_BREAKER_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 120 }),
  /** The ffmpeg that checks providers' videos (core/ffmpeg.ts); empty: /usr/bin/ffmpeg or bundled. */
  FFMPEG_PATH: Type.String({ default: '' }),
  /** The largest result a provider may hand us (download or inline), in bytes (200 MB). */
  VIDEO_RESULT_MAX_BYTES: Type.Integer({
    minimum: 1024 * 1024,
    maximum: 2 * 1024 * 1024 * 1024,
    default: 200 * 1024 * 1024,
  }),
};

type VideoEnv = Static<TObject<typeof VideoEnvSchema>>;

export interface VideoConfig {
  routes: { text: RouteEntry[]; image: RouteEntry[] };
  /** VIDEO_ROUTE_POLICY and VIDEO_MAX_COST_USD (null: no cap). */
  routing: VideoRouting;
  /** Origin for webhook URLs; null: poll only. */
  webhookBase: string | null;
  /**
   * Each provider's settings, parsed by its descriptor from its own variables (opaque here:
   * only the descriptor's `configured` and `create` read them).
   */
  providers: Record<VideoProviderName, unknown>;
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
  /** VIDEO_RESULT_MAX_BYTES: a larger result is stopped at the cap and the task fails. */
  maxResultBytes: number;
  /** FFMPEG_PATH, or null: the system's, else the bundled build. */
  ffmpegPath: string | null;
}

/** How the worker orders a route, and the most a video may cost at an entry (issue 37, item 6). */
export interface VideoRouting {
  policy: 'ordered' | 'cheapest';
  maxCostUsd: number | null;
}

/** VIDEO_MAX_COST_USD: empty is no cap; anything but a non-negative amount stops the start. */
function maxCostOf(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  const amount = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(amount)) {
    throw new Error(`VIDEO_MAX_COST_USD: "${value}" is not an amount in USD (e.g. 1.50).`);
  }
  return amount;
}

/** Parses one route variable; throws a message naming it and the bad entry. */
function parseRoute(variable: string, value: string): RouteEntry[] {
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
    const descriptor = providerByName(provider)!;
    const { name } = descriptor;
    if (!descriptor.isModelId(model)) {
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
  const webhookBase = env.VIDEO_WEBHOOK_BASE
    ? trimSlash(env.VIDEO_WEBHOOK_BASE)
    : fallbackWebhookBase;
  for (const [variable, route] of [
    ['VIDEO_ROUTE_TEXT', routes.text],
    ['VIDEO_ROUTE_IMAGE', routes.image],
  ] as const) {
    for (const { provider } of route) {
      const descriptor = providerByName(provider)!;
      const own = providerEnv(descriptor, env);
      for (const name of descriptor.requires) {
        if (!own[name]!.trim()) {
          throw new Error(`${variable} routes to ${provider}, which needs ${name}. Set ${name}.`);
        }
      }
      for (const name of webhookBase ? (descriptor.requiresForWebhooks ?? []) : []) {
        if (!own[name]!.trim()) {
          throw new Error(
            `${variable} routes to ${provider} with webhooks on (${webhookBase}), which needs ${name}. Set ${name}.`,
          );
        }
      }
    }
  }
  return {
    routes,
    routing: { policy: env.VIDEO_ROUTE_POLICY, maxCostUsd: maxCostOf(env.VIDEO_MAX_COST_USD) },
    webhookBase,
    providers: Object.fromEntries(
      PROVIDERS.map((p) => [p.name, p.settings(providerEnv(p, env))]),
    ) as Record<VideoProviderName, unknown>,
    deadlineMs: env.VIDEO_DEADLINE_MINUTES * 60_000,
    worker: env.VIDEO_WORKER,
    concurrency: env.VIDEO_WORKER_CONCURRENCY,
    leaseMs: env.VIDEO_LEASE_SECONDS * 1000,
    pollMs: env.VIDEO_POLL_MS,
    breaker: { failures: env.VIDEO_BREAKER_FAILURES, openMs: env.VIDEO_BREAKER_SECONDS * 1000 },
    maxResultBytes: env.VIDEO_RESULT_MAX_BYTES,
    ffmpegPath: env.FFMPEG_PATH || null,
  };
}

/** The providers any route names (each gets one adapter). */
export const routedProviders = (video: VideoConfig): Set<VideoProviderName> =>
  new Set([...video.routes.text, ...video.routes.image].map((e) => e.provider));

/** "fal (fal-ai/veo3.1), vertex (…)" for start-up lines. */
export const describeRoute = (route: RouteEntry[]): string =>
  route
    .map((e) => providerByName(e.provider)?.describe(e.model) ?? `${e.provider} (${e.model})`)
    .join(' → ');

/** "fal, replicate, vertex or gemini": the providers production may route to. */
const HOSTED = PROVIDERS.filter((p) => !p.localOnly)
  .map((p) => p.name)
  .join(', ')
  .replace(/, ([^,]*)$/, ' or $1');

/** Why production refuses this route (it names a local-only provider), or null. */
export function localOnlyRefusal(route: RouteEntry[]): string | null {
  const local = route.map((e) => providerByName(e.provider)!).find((p) => p.localOnly);
  return local ? `the ${local.title} (${local.name}) is local-only: route to ${HOSTED}` : null;
}
