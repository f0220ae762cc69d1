/**
 * What a video costs us at its provider (issue 37, items 4 to 6): content/provider-costs.json
 * holds USD per second of output for each provider and billed model (the tier is a model of its
 * own; audio is always on) at each resolution, with the source and date of each figure. Read and
 * checked once, when this module loads: a malformed table stops the start.
 *
 * A job's billed model comes from its descriptor (`billedModel`: `fal-ai/veo3.1` with the fast tier
 * bills as `fal-ai/veo3.1/fast`). An extension bills the seconds it adds (EXTEND_SECONDS), any
 * other video its whole length.
 */
import table from '../../../../content/provider-costs.json' with { type: 'json' };
import { PACKS, PLANS } from '../../../../shared/billing.ts';
import {
  DEFAULT_OPTIONS,
  EXTEND_SECONDS,
  RESOLUTIONS,
  videoPrice,
  type Resolution,
  type VideoOptions,
} from '../../../../shared/video-options.ts';
import { VIDEO_SECONDS } from '../../../../shared/video.ts';
import { PROVIDER_NAMES, providerByName } from './index.ts';

interface CostEntry {
  provider: string;
  model: string;
  usdPerSecond: Record<Resolution, number>;
  source: string;
  date: string;
  unconfirmed?: boolean;
  note?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The table's entries by `provider:model`, each checked; throws naming the first bad one. */
function checkTable(raw: typeof table): {
  models: Map<string, CostEntry>;
  billsFailedJobs: Map<string, boolean>;
} {
  const models = new Map<string, CostEntry>();
  for (const entry of raw.models as CostEntry[]) {
    const key = `${entry.provider}:${entry.model}`;
    const bad = (why: string) => new Error(`content/provider-costs.json: ${key} ${why}.`);
    if (!(PROVIDER_NAMES as readonly string[]).includes(entry.provider))
      throw bad('names no registered provider');
    if (models.has(key)) throw bad('is listed twice');
    for (const resolution of RESOLUTIONS) {
      const usd = entry.usdPerSecond?.[resolution];
      if (typeof usd !== 'number' || !(usd >= 0)) throw bad(`has no price at ${resolution}`);
    }
    if (!entry.source) throw bad('has no source');
    if (!DATE.test(entry.date ?? '')) throw bad('has no date (YYYY-MM-DD)');
    models.set(key, entry);
  }
  const providers = raw.providers as Record<string, { billsFailedJobs?: unknown }>;
  const billsFailedJobs = new Map<string, boolean>();
  for (const name of PROVIDER_NAMES) {
    const bills = providers[name]?.billsFailedJobs;
    if (typeof bills !== 'boolean')
      throw new Error(`content/provider-costs.json: providers.${name}.billsFailedJobs is missing.`);
    billsFailedJobs.set(name, bills);
  }
  return { models, billsFailedJobs };
}

const TABLE = checkTable(table);

/** A route entry: a provider's name and one of its model ids. */
type Entry = { readonly provider: string; readonly model: string };
type PricedOptions = Pick<VideoOptions, 'tier' | 'resolution'>;

/** USD per second of video for a route entry and options, or null when the table has no price. */
export function costPerSecond(
  provider: string,
  model: string,
  options: PricedOptions,
): number | null {
  const descriptor = providerByName(provider);
  if (!descriptor) return null;
  const entry = TABLE.models.get(`${provider}:${descriptor.billedModel(model, options.tier)}`);
  return entry ? entry.usdPerSecond[options.resolution] : null;
}

/** Rounded to the column's precision (numeric(12, 6)). */
const usd = (n: number) => Math.round(n * 1e6) / 1e6;

/** What one video costs at a route entry, or null when the table has no price for it. */
export function videoCostUsd(
  entry: Entry,
  options: PricedOptions & Pick<VideoOptions, 'extend'>,
  durationSeconds: number,
): number | null {
  const perSecond = costPerSecond(entry.provider, entry.model, options);
  if (perSecond === null) return null;
  return usd(perSecond * (options.extend ? EXTEND_SECONDS : durationSeconds));
}

/**
 * What a finished task cost at its provider, by the table: the video's price when it succeeded;
 * when the provider said it failed, the same price if that provider bills failed jobs, else 0
 * (fal, Replicate, Vertex AI and Gemini bill only videos made). Null when the table has no price.
 */
export function taskCostUsd(
  task: { provider: string; providerModel: string | null; durationSeconds: number },
  options: VideoOptions,
  succeeded: boolean,
): number | null {
  if (!succeeded && TABLE.billsFailedJobs.get(task.provider) === false) return 0;
  const model = task.providerModel;
  return model === null
    ? null
    : videoCostUsd({ provider: task.provider, model }, options, task.durationSeconds);
}

/**
 * The entries whose video costs at most `maxCostUsd` (VIDEO_MAX_COST_USD; null: no cap). An
 * entry the table has no price for is left out under a cap: it could cost anything.
 */
export function withinCostCap<E extends Entry>(
  entries: readonly E[],
  options: VideoOptions,
  durationSeconds: number,
  maxCostUsd: number | null,
): E[] {
  if (maxCostUsd === null) return [...entries];
  return entries.filter((e) => {
    const cost = videoCostUsd(e, options, durationSeconds);
    return cost !== null && cost <= maxCostUsd;
  });
}

/**
 * VIDEO_ROUTE_POLICY=cheapest: the entries by their cost for this video, cheapest first; equal
 * costs by their provider's p95 time to done over the last hour (faster first; no figure after
 * any figure), then in the configured order. An entry without a price goes last.
 */
export function cheapestFirst<E extends Entry>(
  entries: readonly E[],
  options: VideoOptions,
  durationSeconds: number,
  p95Seconds: ReadonlyMap<string, number | null>,
): E[] {
  const key = (e: E) => ({
    cost: videoCostUsd(e, options, durationSeconds) ?? Infinity,
    p95: p95Seconds.get(e.provider) ?? Infinity,
  });
  return entries
    .map((e, i) => ({ e, i, ...key(e) }))
    .sort((a, b) => a.cost - b.cost || a.p95 - b.p95 || a.i - b.i)
    .map((x) => x.e);
}

/**
 * The lowest price a customer pays for one credit in content/plans.json, and what sells it:
 * every plan monthly and yearly (a year grants twelve months of credits) and every pack.
 */
export function cheapestCredit(): { label: string; usdPerCredit: number } {
  const offers = [
    ...PLANS.flatMap((p) => [
      { label: `${p.name} monthly`, usdPerCredit: p.monthlyPrice / p.credits },
      { label: `${p.name} yearly`, usdPerCredit: p.yearlyPrice / (p.credits * 12) },
    ]),
    ...PACKS.map((p) => ({ label: `${p.name} pack`, usdPerCredit: p.price / p.credits })),
  ];
  return offers.reduce((a, b) => (b.usdPerCredit < a.usdPerCredit ? b : a));
}

/**
 * The loss flag (issue 37, item 5): what the default video (VIDEO_SECONDS with audio, 16:9, 720p,
 * standard tier, no other option) costs at this route entry against what its credits bring at
 * the cheapest credit price. A text when the cost is higher ("loses $2.80 per video at Pro+
 * yearly prices"), null when it is not or the table has no price.
 */
export function defaultVideoLoss(entry: Entry): string | null {
  const cost = videoCostUsd(entry, DEFAULT_OPTIONS, VIDEO_SECONDS);
  if (cost === null) return null;
  const { label, usdPerCredit } = cheapestCredit();
  const loss = cost - videoPrice(DEFAULT_OPTIONS) * usdPerCredit;
  return loss > 0 ? `loses $${loss.toFixed(2)} per video at ${label} prices` : null;
}
