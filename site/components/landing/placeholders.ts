/**
 * `{{name}}` in landing and effects copy is filled from the one place each value lives (the video
 * contract, the generator's time estimate, content/site.json), so a price or a duration is never
 * written twice in content. Values with words in them (the time estimate) come in the copy's
 * language.
 */
import type { Locale } from '../../i18n/locales.ts';
import { generator_estimated_time } from '../../i18n/messages.ts';
import { BRAND, PRODUCT_NAME } from '../../lib/site.ts';
import { VIDEO_COST, VIDEO_SECONDS } from '../../../shared/video.ts';

function valuesFor(locale: Locale): Record<string, string | number> {
  return {
    brand: BRAND,
    productName: PRODUCT_NAME,
    videoCost: VIDEO_COST,
    videoSeconds: VIDEO_SECONDS,
    // The generator shows the same estimate (messages/generator).
    estimatedTime: generator_estimated_time(locale),
  };
}

/** Fills `{{name}}` in one string; an unknown name fails the build instead of showing braces. */
function fillPlaceholders(text: string, where: string, locale: Locale = 'en'): string {
  const values = valuesFor(locale);
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`${where}: unknown placeholder {{${name}}}.`);
    return String(values[name]);
  });
}

/** Fills every string in a JSON value, in the copy's language. */
export function fillDeep<T>(value: T, where: string, locale: Locale = 'en'): T {
  if (typeof value === 'string') return fillPlaceholders(value, where, locale) as T;
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, where, locale)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillDeep(item, where, locale)]),
    ) as T;
  }
  return value;
}
