/**
 * The one place a video provider is registered. Config parsing, route validation, setup,
 * metrics labels, the admin card and the docs' variable lists all read this list
 * (docs/architecture.md, "How to add a provider").
 */
import { fal } from './fal/index.ts';
import { gemini } from './gemini/index.ts';
import { local } from './local/index.ts';
import { replicate } from './replicate/index.ts';
import { vertex } from './vertex/index.ts';

export const PROVIDERS = [fal, replicate, vertex, gemini, local] as const;

export type VideoProviderName = (typeof PROVIDERS)[number]['name'];

export const PROVIDER_NAMES: readonly VideoProviderName[] = PROVIDERS.map((p) => p.name);

/** The descriptor of a registered provider, or undefined for any other name. */
export const providerByName = (name: string) => PROVIDERS.find((p) => p.name === name);

/** The `provider` metric label of each registered provider, by name. */
export const PROVIDER_METRICS_LABELS: ReadonlyMap<string, string> = new Map(
  PROVIDERS.map((p) => [p.name, p.metricsLabel]),
);
