/**
 * The home page's copy, from content/home.json, checked and with `{{name}}` placeholders filled
 * from the single sources of each value (video cost and length, refund numbers, brand), the same
 * way the legal pages do it. A wrong count or an unknown placeholder fails the build.
 */
import home from '../../../content/home.json' with { type: 'json' };
import homeZh from '../../../content/zh-CN/home.json' with { type: 'json' };
import galleryZh from '../../../content/zh-CN/gallery.json' with { type: 'json' };
import type { Locale } from '../../i18n/locales.ts';
import type { GalleryEntry } from '../../lib/gallery.ts';
import policy from '../../../content/legal/policy.json' with { type: 'json' };
import { VIDEO_COST, VIDEO_SECONDS } from '../../../shared/video.ts';
import { BRAND, PRODUCT_NAME } from '../../lib/site.ts';
import { isFeatureIcon, type FeatureIconName } from '../../lib/icons/index.ts';

export interface HomeContent {
  gallery: { title: string; intro: string; uploadDate: string };
  features: { title: string; items: { icon: FeatureIconName; title: string; text: string }[] };
  howTo: { title: string; steps: { title: string; text: string }[] };
  faq: { title: string; items: { question: string; answer: string }[] };
}

const PLACEHOLDER_VALUES: Readonly<Record<string, string | number>> = {
  ...policy,
  brand: BRAND,
  productName: PRODUCT_NAME,
  videoCost: VIDEO_COST,
  videoSeconds: VIDEO_SECONDS,
};

/** Replaces every `{{name}}`; throws on a name with no value. */
export function fillPlaceholders(
  text: string,
  values: Readonly<Record<string, string | number>> = PLACEHOLDER_VALUES,
): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`content/home.json: unknown placeholder {{${name}}}.`);
    return String(values[name]);
  });
}

/** Fills placeholders in every string of a JSON value. */
function fillDeep<T>(value: T, values: Readonly<Record<string, string | number>>): T {
  if (typeof value === 'string') return fillPlaceholders(value, values) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => fillDeep(v, values)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillDeep(v, values)])) as T;
  }
  return value;
}

/** Checks the counts the spec fixes (4 steps, 6 FAQ items) and returns the filled copy. */
export function parseHomeContent(
  raw: unknown,
  values: Readonly<Record<string, string | number>> = PLACEHOLDER_VALUES,
): HomeContent {
  const content = fillDeep(raw, values) as HomeContent;
  const { features, howTo, faq, gallery } = content;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(gallery?.uploadDate ?? '')) {
    throw new Error('content/home.json: gallery.uploadDate must be a YYYY-MM-DD date.');
  }
  if (!(features?.items?.length >= 4 && features.items.length <= 6)) {
    throw new Error('content/home.json: features.items needs 4 to 6 features.');
  }
  for (const { icon } of features.items) {
    if (!isFeatureIcon(icon)) throw new Error(`content/home.json: unknown feature icon "${icon}".`);
  }
  if (howTo?.steps?.length !== 4) throw new Error('content/home.json: howTo.steps needs 4 steps.');
  if (faq?.items?.length !== 6) throw new Error('content/home.json: faq.items needs 6 questions.');
  return content;
}

export const homeContent: HomeContent = parseHomeContent(home);
const homeContentZh: HomeContent = parseHomeContent(homeZh);

/** The home page's copy in a language (content/zh-CN/home.json for Chinese). */
export function homeContentFor(locale: Locale): HomeContent {
  return locale === 'zh-CN' ? homeContentZh : homeContent;
}

const GALLERY_TITLES_ZH: Readonly<Record<string, { title: string }>> = galleryZh;

/**
 * The gallery in a language: the cards' captions from content/zh-CN/gallery.json for Chinese
 * (a clip without a translated caption fails the build, so none shows in English by mistake).
 * The prompt stays as written: it is what made the clip.
 */
export function galleryFor<T extends GalleryEntry>(entries: readonly T[], locale: Locale): T[] {
  if (locale === 'en') return [...entries];
  return entries.map((entry) => {
    const title = GALLERY_TITLES_ZH[entry.id]?.title;
    if (!title) throw new Error(`content/zh-CN/gallery.json: no caption for "${entry.id}".`);
    return { ...entry, title };
  });
}
