/**
 * What a video provider says about itself (issue 32, item 1). Each `providers/<name>/index.ts`
 * exports one descriptor and `providers/index.ts` lists them in PROVIDERS; config parsing,
 * route validation, setup, metrics labels, the admin card and the docs' variable lists are all
 * read from there, so adding a provider touches its folder and one line of that list.
 */
import type { OutboundPolicy } from '../../../core/outbound.ts';
import type { Tier } from '../../../../shared/video-options.ts';
import type { ModelCapabilities } from './capabilities.ts';
import type { VideoProvider } from './types.ts';

/** One environment variable a provider reads (all are strings; empty means unset). */
export interface ProviderEnvVar {
  readonly name: string;
  /** Never logged or shown: keys, tokens, signing secrets, credential file paths. */
  readonly secret: boolean;
  /** The value when unset ('' for none). */
  readonly default: string;
  /** One line for people: what it is and where to get it. */
  readonly description: string;
  /**
   * Only to point the adapter at a test double (base URLs): deploy/ files leave these out, so a
   * production setup cannot aim at a fake by accident.
   */
  readonly testDouble?: boolean;
}

/** What the provider's API does for every model (what each model can do: modelCapabilities). */
interface ProviderCapabilities {
  /** `cancel` really stops the job at the provider (false: a no-op, the job runs out). */
  readonly cancel: boolean;
  /** Completion webhooks (`verifyWebhook` present); false: polling only. */
  readonly webhooks: boolean;
}

/** A provider's own variables, by name, after defaults (only the ones it declares). */
export type ProviderEnv = Readonly<Record<string, string>>;

/** What setup hands every factory besides the provider's own settings. */
interface ProviderDeps {
  /** DATA_DIR, resolved (the local renderer keeps its jobs under it). */
  readonly dataDir: string;
  /** OUTBOUND_ALLOW_HOSTS: what the guarded fetcher may reach besides public addresses. */
  readonly outbound: OutboundPolicy;
  /** VIDEO_RESULT_MAX_BYTES. */
  readonly maxResultBytes: number;
}

/** The part of a descriptor that does not depend on its settings' type. */
interface DescriptorFacts<Name extends string> {
  /** The route prefix (`fal` in `fal:fal-ai/veo3.1`), the webhook path segment, the task's provider. */
  readonly name: Name;
  /** Who it is, for docs and start-up lines: "fal.ai queue". */
  readonly title: string;
  readonly env: readonly ProviderEnvVar[];
  /** Production refuses a route to it (the local renderer). */
  readonly localOnly: boolean;
  /** Whether `model` is spelled like one of this provider's model ids (start-up rejects typos). */
  isModelId(model: string): boolean;
  /** Variables that must be non-empty when a route names it (start-up names the first missing). */
  readonly requires: readonly string[];
  /** More that must be set when a route names it and webhooks are on (VIDEO_WEBHOOK_BASE). */
  readonly requiresForWebhooks?: readonly string[];
  readonly capabilities: ProviderCapabilities;
  /**
   * What the adapter does with this model id (issue 35): the options it sends in the provider's
   * own fields. A model id the provider has no checked facts for gets FIXED_MODEL.
   */
  modelCapabilities(model: string): ModelCapabilities;
  /**
   * The model ids its ./models.ts has checked facts for: what its routes are expected to name.
   * Each needs an entry in content/provider-costs.json (tests/unit/provider-costs.test.ts).
   */
  readonly routeModels: readonly string[];
  /**
   * The model a job on this route model and tier is billed as: the key of its price in
   * content/provider-costs.json (`fal-ai/veo3.1` with the fast tier runs, and bills, as
   * `fal-ai/veo3.1/fast`). An id without a price gets none (./costs.ts).
   */
  billedModel(model: string, tier: Tier): string;
  /** The `provider` label of its metric series (kept equal to the name: dashboards query it). */
  readonly metricsLabel: string;
  /**
   * Pause between status checks when VIDEO_POLL_MS is 0; absent: the hosted default (5 s, 15 s
   * with webhooks on, which check a job the moment it finishes).
   */
  readonly pollMs?: number;
  /** How long a job usually takes (the queue's wait estimate). */
  readonly expectedMs: number;
  /** How a route entry reads in start-up lines: "fal (fal-ai/veo3.1)". */
  describe(model: string): string;
}

/** A descriptor as its folder writes it: `settings` parses its variables, `create` uses them. */
export interface ProviderSpec<Name extends string, Settings> extends DescriptorFacts<Name> {
  /** Its settings from its variables; throws (naming the variable) on a value start-up refuses. */
  settings(env: ProviderEnv): Settings;
  /**
   * Whether an adapter is built when no route names it: a job accepted before a route change is
   * still followed to its end when the credentials are still set.
   */
  configured(settings: Settings): boolean;
  /**
   * The adapter. Its module is imported here, on the first call, not with the descriptor: a
   * provider no route names and no credentials configure costs nothing at start-up (issue 33).
   */
  create(settings: Settings, deps: ProviderDeps): Promise<VideoProvider>;
}

/**
 * A descriptor as the registry holds it: settings are opaque outside the provider's folder, so
 * one list can hold providers whose settings differ.
 */
export type ProviderDescriptor<Name extends string = string> = ProviderSpec<Name, unknown>;

/** Checks a provider's spec and erases its settings type for PROVIDERS. */
export function defineProvider<const Name extends string, Settings>(
  spec: ProviderSpec<Name, Settings>,
): ProviderDescriptor<Name> {
  const declared = new Set(spec.env.map((v) => v.name));
  for (const name of [...spec.requires, ...(spec.requiresForWebhooks ?? [])]) {
    if (!declared.has(name))
      throw new Error(`${spec.name} requires ${name} but declares no such variable.`);
  }
  return {
    ...spec,
    configured: (settings) => spec.configured(settings as Settings),
    create: (settings, deps) => spec.create(settings as Settings, deps),
  };
}

/** Each variable of `env` the provider declares, with its default where unset or empty. */
export function providerEnv(
  descriptor: Pick<DescriptorFacts<string>, 'env'>,
  env: Readonly<Record<string, unknown>>,
): ProviderEnv {
  return Object.fromEntries(
    descriptor.env.map((v) => {
      const value = env[v.name];
      return [v.name, typeof value === 'string' && value !== '' ? value : v.default];
    }),
  );
}

/** A URL variable without its trailing slashes (paths are appended to it). */
export const trimSlash = (url: string): string => url.replace(/\/+$/, '');
