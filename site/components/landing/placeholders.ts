/**
 * `{{name}}` in landing and effects copy is filled from the one place each value lives (the video
 * contract, the generator's time estimate, content/site.json), so a price or a duration is never
 * written twice in content.
 */
import { ESTIMATED_TIME } from '../../islands/generator/ResultPanel.tsx';
import { BRAND, PRODUCT_NAME } from '../../lib/site.ts';
import { VIDEO_COST, VIDEO_SECONDS } from '../../../shared/video.ts';

const VALUES: Record<string, string | number> = {
  brand: BRAND,
  productName: PRODUCT_NAME,
  videoCost: VIDEO_COST,
  videoSeconds: VIDEO_SECONDS,
  estimatedTime: ESTIMATED_TIME,
};

/** Fills `{{name}}` in one string; an unknown name fails the build instead of showing braces. */
export function fillPlaceholders(text: string, where: string): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    if (!(name in VALUES)) throw new Error(`${where}: unknown placeholder {{${name}}}.`);
    return String(VALUES[name]);
  });
}

/** Fills every string in a JSON value. */
export function fillDeep<T>(value: T, where: string): T {
  if (typeof value === 'string') return fillPlaceholders(value, where) as T;
  if (Array.isArray(value)) return value.map((item) => fillDeep(item, where)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, fillDeep(item, where)]),
    ) as T;
  }
  return value;
}
