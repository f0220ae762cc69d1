/**
 * Copy whose numbers follow from the catalogue (content/plans.json) and the video's cost and
 * length (shared/video.ts), so changing VIDEO_COST changes every "about 34 videos" with it (issue
 * 32 item 6). Copy names them with `{{name}}` placeholders, like the home, landing and legal
 * copy: a plan's or pack's own text may use {{credits}} and {{videos}}; any copy may use
 * {{videoCost}}, {{videoSeconds}} and, per plan or pack id, {{<id>.credits}}, {{<id>.videos}},
 * {{<id>.price}} (a plan's monthly price) and {{<id>.videoPrice}} (what one video costs on it).
 * The pricing page (both languages, through shared/billing.ts and site/lib/plans.ts) and the
 * sample articles (content/blog-seed, filled by the blog's seed loader) fill through here.
 */
import catalogue from '../content/plans.json' with { type: 'json' };
import { VIDEO_COST, VIDEO_SECONDS } from './video.ts';

/** A plan or pack as far as its copy needs it. */
export interface CatalogueItem {
  id: string;
  credits: number;
}

export type CopyValues = Readonly<Record<string, string | number>>;

/** Whole videos `credits` pay for at `cost` credits a video (the copy's "about N videos"). */
export const videosFor = (credits: number, cost: number = VIDEO_COST): number =>
  Math.floor(credits / cost);

/** Counts read as the catalogue's copy writes them, in both languages: 1,340. */
const count = (n: number): string => n.toLocaleString('en-US');

/** The values any copy may name, computed for a video costing `cost` credits. */
export function copyValues(cost: number = VIDEO_COST): CopyValues {
  const values: Record<string, string | number> = { videoCost: cost, videoSeconds: VIDEO_SECONDS };
  const items = [
    ...catalogue.plans.map((plan) => ({ ...plan, price: plan.monthlyPrice })),
    ...catalogue.packs,
  ];
  for (const { id, credits, price } of items) {
    values[`${id}.credits`] = count(credits);
    values[`${id}.videos`] = count(videosFor(credits, cost));
    values[`${id}.price`] = String(price);
    // What one video's credits cost on this plan or pack, to the cent.
    values[`${id}.videoPrice`] = ((price * cost) / credits).toFixed(2);
  }
  return values;
}

/** Replaces every `{{name}}` with its value; an unknown name throws, naming `where`. */
export function fillCopy(text: string, values: CopyValues, where: string): string {
  return text.replace(/\{\{\s*([\w.+]+)\s*\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`${where}: unknown placeholder {{${name}}}.`);
    return String(values[name]);
  });
}

/** A plan's or pack's own copy (a feature, a description), filled for `item` at `cost`. */
export function itemCopy(text: string, item: CatalogueItem, cost: number = VIDEO_COST): string {
  const values = {
    ...copyValues(cost),
    credits: count(item.credits),
    videos: count(videosFor(item.credits, cost)),
  };
  return fillCopy(text, values, `content/plans.json "${item.id}"`);
}

/** Every string in a JSON value filled (a sample article's fields); other values unchanged. */
export function fillCopyDeep<T>(value: T, where: string, cost: number = VIDEO_COST): T {
  const values = copyValues(cost);
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return fillCopy(v, values, where);
    if (Array.isArray(v)) return v.map(fill);
    if (v && typeof v === 'object') {
      return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, fill(inner)]));
    }
    return v;
  };
  return fill(value) as T;
}
