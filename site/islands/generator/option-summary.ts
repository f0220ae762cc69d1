/**
 * The options a task was made with, in words (issue 35): "9:16 · 1080p · Fast · Seed 42", only
 * those that differ from the spec's clip, for the result panel and each history card.
 */
import type { VideoOptionsData } from '../../../shared/api/video.ts';
import { DEFAULT_OPTIONS } from '../../../shared/video-options.ts';
import type { Locale } from '../../i18n/locales.ts';
import * as m from '../../i18n/messages.ts';
import { formatNumber } from '../../lib/format.ts';

/** Each chosen option as a short label; [] for the default clip (or when none are known). */
export function optionLabels(
  options: Partial<VideoOptionsData> | null | undefined,
  locale: Locale,
): string[] {
  if (!options) return [];
  const labels: string[] = [];
  if (options.aspect_ratio && options.aspect_ratio !== DEFAULT_OPTIONS.aspectRatio)
    labels.push(options.aspect_ratio);
  if (options.resolution && options.resolution !== DEFAULT_OPTIONS.resolution)
    labels.push(options.resolution);
  if (options.tier === 'fast') labels.push(m.generator_tier_fast(locale));
  if (options.seed !== null && options.seed !== undefined)
    labels.push(m.generator_summary_seed(locale, { seed: String(options.seed) }));
  if (options.negative_prompt) labels.push(m.generator_negative_prompt(locale));
  if (options.last_frame) labels.push(m.generator_summary_last_frame(locale));
  const references = options.reference_images ?? 0;
  if (references > 0) {
    const count = formatNumber(references, locale);
    labels.push(
      references === 1
        ? m.generator_summary_references_one(locale, { count })
        : m.generator_summary_references_other(locale, { count }),
    );
  }
  return labels;
}

/** "15 s", "15 秒". */
export const secondsText = (seconds: number, locale: Locale): string =>
  m.generator_seconds(locale, { seconds: formatNumber(seconds, locale) });
