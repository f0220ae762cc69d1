/**
 * A request's creative options (issue 35, items 2, 4 and 5): the form or query fields read into
 * VideoOptions, every refusal a 400 with a code and a message naming the option, the route
 * entries that can make the video, and the price (shared/video-options.ts videoPrice, the one
 * function the site, the quote and the charge all use).
 */
import type { RouteEntry } from '../../config-video.ts';
import { badRequest } from '../../core/errors.ts';
import { msg } from '../../core/api-messages.ts';
import {
  ASPECT_RATIOS,
  DEFAULT_OPTIONS,
  MAX_NEGATIVE_PROMPT_LENGTH,
  MAX_REFERENCE_IMAGES,
  MAX_SEED,
  OPTION_FIELDS,
  RESOLUTIONS,
  TIERS,
  type VideoOptions,
} from '../../../shared/video-options.ts';
import { FIXED_MODEL, unsupportedOption } from './providers/capabilities.ts';
import { withinCostCap } from './providers/costs.ts';
import { providerByName } from './providers/index.ts';
import type { VideoMode } from './providers/types.ts';
import { isUuid } from '../../core/uuid.ts';

/** The option fields of a generate form or a quote query, as sent (text). */
export type OptionFields = Partial<Record<string, string>>;

/** A choice field: absent or empty is the default; anything outside `allowed` is refused. */
function choice<T extends string>(
  fields: OptionFields,
  option: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = fields[option]?.trim();
  if (value === undefined || value === '') return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw badRequest(
    msg('video.option_invalid', { option, value: value.slice(0, 40), allowed: allowed.join(', ') }),
    'OPTION_INVALID',
  );
}

function seedOf(fields: OptionFields): number | null {
  const value = fields[OPTION_FIELDS.seed]?.trim();
  if (value === undefined || value === '') return null;
  const seed = /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  if (!(seed <= MAX_SEED)) {
    throw badRequest(msg('video.seed_invalid', { max: MAX_SEED }), 'SEED_INVALID');
  }
  return seed;
}

function negativePromptOf(fields: OptionFields): string | null {
  const value = fields[OPTION_FIELDS.negativePrompt]?.trim() ?? '';
  if (value.length > MAX_NEGATIVE_PROMPT_LENGTH) {
    throw badRequest(
      msg('video.negative_prompt_too_long', { max: MAX_NEGATIVE_PROMPT_LENGTH }),
      'NEGATIVE_PROMPT_TOO_LONG',
    );
  }
  return value || null;
}

/** The source task of an extension, as named (checked for its owner by the service). */
export function extendSourceOf(fields: OptionFields): string | null {
  const value = fields[OPTION_FIELDS.extend]?.trim();
  if (value === undefined || value === '') return null;
  if (!isUuid(value)) {
    throw badRequest(msg('video.extend_source_not_found'), 'EXTEND_SOURCE_NOT_FOUND');
  }
  return value.toLowerCase();
}

/**
 * The options of a request: its fields, and what its files brought (an end frame, reference
 * images). Refuses what no provider could do in this mode whatever the route: an end frame
 * outside image mode, reference images outside text mode or more than three, an extension with
 * either or with a first frame.
 */
export function readOptions(
  fields: OptionFields,
  mode: VideoMode,
  files: { lastFrame: boolean; referenceImages: number },
): VideoOptions {
  const options: VideoOptions = {
    aspectRatio: choice(
      fields,
      OPTION_FIELDS.aspectRatio,
      ASPECT_RATIOS,
      DEFAULT_OPTIONS.aspectRatio,
    ),
    resolution: choice(fields, OPTION_FIELDS.resolution, RESOLUTIONS, DEFAULT_OPTIONS.resolution),
    tier: choice(fields, OPTION_FIELDS.tier, TIERS, DEFAULT_OPTIONS.tier),
    negativePrompt: negativePromptOf(fields),
    seed: seedOf(fields),
    lastFrame: files.lastFrame,
    referenceImages: files.referenceImages,
    extend: extendSourceOf(fields) !== null,
  };
  if (options.lastFrame && mode !== 'image') {
    throw badRequest(
      msg('video.option_needs_mode', { option: OPTION_FIELDS.lastFrame, mode: 'image' }),
      'OPTION_NEEDS_IMAGE_MODE',
    );
  }
  if (options.referenceImages > 0 && mode !== 'text') {
    throw badRequest(
      msg('video.option_needs_mode', { option: OPTION_FIELDS.referenceImages, mode: 'text' }),
      'OPTION_NEEDS_TEXT_MODE',
    );
  }
  if (options.referenceImages > MAX_REFERENCE_IMAGES) {
    throw badRequest(
      msg('video.too_many_reference_images', { max: MAX_REFERENCE_IMAGES }),
      'TOO_MANY_REFERENCE_IMAGES',
    );
  }
  if (options.extend && (mode !== 'text' || options.lastFrame || options.referenceImages > 0)) {
    const other =
      mode !== 'text'
        ? 'image'
        : options.lastFrame
          ? OPTION_FIELDS.lastFrame
          : OPTION_FIELDS.referenceImages;
    throw badRequest(msg('video.extend_conflict', { option: other }), 'EXTEND_CONFLICT');
  }
  return options;
}

/** The value of an option as a refusal names it. */
function optionValue(option: string, options: VideoOptions): string {
  switch (option) {
    case OPTION_FIELDS.aspectRatio:
      return options.aspectRatio;
    case OPTION_FIELDS.resolution:
      return options.resolution;
    case OPTION_FIELDS.tier:
      return options.tier;
    case OPTION_FIELDS.seed:
      return String(options.seed);
    case OPTION_FIELDS.referenceImages:
      return String(options.referenceImages);
    default:
      return '✓';
  }
}

/** A route entry: a provider's name and one of its model ids. */
type Entry = { readonly provider: string; readonly model: string };

/** What an entry's model can do; a name no descriptor has (a test's double) makes the spec's clip. */
const capabilitiesOf = (e: Entry) =>
  providerByName(e.provider)?.modelCapabilities(e.model) ?? FIXED_MODEL;

/** The route's entries whose model can do all of the request, in the configured order. */
export function capableEntries<E extends Entry>(
  route: readonly E[],
  mode: VideoMode,
  options: VideoOptions,
  sourceSeconds?: number,
): E[] {
  return route.filter(
    (e) => unsupportedOption(capabilitiesOf(e), mode, options, sourceSeconds) === null,
  );
}

/**
 * The entries that can make the video, or a 400 naming the option the route's first entry
 * cannot do: checked before any charge or upload is kept.
 */
export function assertRoutable(
  route: readonly RouteEntry[],
  mode: VideoMode,
  options: VideoOptions,
  sourceSeconds?: number,
): RouteEntry[] {
  const capable = capableEntries(route, mode, options, sourceSeconds);
  if (capable.length > 0) return capable;
  const option =
    unsupportedOption(capabilitiesOf(route[0]!), mode, options, sourceSeconds) ?? 'mode';
  throw badRequest(
    msg('video.option_unsupported', { option, value: optionValue(option, options) }),
    'OPTION_UNSUPPORTED',
  );
}

/**
 * VIDEO_MAX_COST_USD (issue 37, item 6): the entries whose video costs at most the cap (all of
 * them without one), or a 400 before any charge when none does, like OPTION_UNSUPPORTED.
 */
export function assertAffordable(
  entries: readonly RouteEntry[],
  options: VideoOptions,
  durationSeconds: number,
  maxCostUsd: number | null,
): RouteEntry[] {
  const affordable = withinCostCap(entries, options, durationSeconds, maxCostUsd);
  if (affordable.length > 0 || maxCostUsd === null) return affordable;
  throw badRequest(
    msg('video_costs.over_cost_limit', { max: maxCostUsd.toFixed(2) }),
    'COST_LIMIT_EXCEEDED',
  );
}
