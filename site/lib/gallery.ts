/**
 * The home gallery (spec 2 "Home gallery", 9): the entry schema for content/gallery.json and the
 * pure rules the page's script applies (which cards show for a filter and a count). No DOM here,
 * so the rules are unit-tested as they are.
 */
import type { Locale } from '../i18n/locales.ts';
import * as m from '../i18n/messages.ts';

export const GALLERY_CATEGORIES = ['Animation', 'Product', 'Movie', 'Talk Show', 'Other'] as const;
export type GalleryCategory = (typeof GALLERY_CATEGORIES)[number];
export type GalleryFilter = 'All' | GalleryCategory;
export const GALLERY_FILTERS: readonly GalleryFilter[] = ['All', ...GALLERY_CATEGORIES];

/** Cards visible on load. */
export const INITIAL_VISIBLE = 8;
/** Cards each 'More Videos' click adds. */
export const MORE_STEP = 4;
/** Cards visible right after the filter changes (spec: "resets the visible count to 4"). */
export const FILTER_RESET_VISIBLE = 4;
/** How long a card's loading fallback may show before the frame is revealed anyway. */
export const EMBED_FALLBACK_MS = 3000;
/** Height of every gallery frame, px. */
export const FRAME_HEIGHT = 550;
export const EMPTY_CATEGORY_TEXT = m.gallery_empty('en');

export interface GalleryEntry {
  id: string;
  creator: string;
  /** The clip itself (ours: `/samples/{id}.mp4`), or the social post's page. */
  videoUrl: string;
  /** What the card's iframe shows: `/embed/{id}` for our clips, or a social embed URL. */
  embedUrl: string;
  category: GalleryCategory;
  title: string;
  /** For our clips, the text the local renderer renders (and the clip's description). */
  prompt?: string;
}

/**
 * Hosts an operator may embed, by provider. Keep in step with `frameSrc` in
 * server/core/security.ts: a frame from any other host would be blocked by the CSP.
 */
export const EMBED_HOSTS: Readonly<Record<string, readonly string[]>> = {
  tiktok: ['www.tiktok.com'],
  youtube: ['www.youtube.com', 'youtube.com', 'www.youtube-nocookie.com', 'youtube-nocookie.com'],
  instagram: ['www.instagram.com'],
  x: ['platform.twitter.com', 'twitter.com', 'x.com'],
};

/** `local` for a page of ours (`/embed/{id}`), else the social provider the URL belongs to. */
export function embedProvider(embedUrl: string): string | null {
  if (/^\/embed\/[a-z0-9-]+$/.test(embedUrl)) return 'local';
  let url: URL;
  try {
    url = new URL(embedUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:') return null;
  for (const [provider, hosts] of Object.entries(EMBED_HOSTS)) {
    if (hosts.includes(url.hostname)) return provider;
  }
  return null;
}

/** True when the entry plays a clip of ours rendered at build time. */
export const isLocalEntry = (entry: Pick<GalleryEntry, 'embedUrl'>) =>
  embedProvider(entry.embedUrl) === 'local';

const ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * Checks content/gallery.json and returns it typed; a bad entry fails the build with a message
 * naming it, so a typo never ships as a broken card.
 */
export function parseGallery(raw: unknown): GalleryEntry[] {
  if (!Array.isArray(raw)) throw new Error('content/gallery.json must be an array of entries.');
  const seen = new Set<string>();
  return raw.map((value: unknown, index) => {
    const entry = value as Partial<Record<keyof GalleryEntry, unknown>>;
    const where = `content/gallery.json entry ${index} (${String(entry?.id)})`;
    for (const key of ['id', 'creator', 'videoUrl', 'embedUrl', 'category', 'title'] as const) {
      if (typeof entry?.[key] !== 'string' || entry[key] === '') {
        throw new Error(`${where}: "${key}" must be a non-empty string.`);
      }
    }
    const { id, category, embedUrl, videoUrl, prompt } = entry as Record<string, string>;
    if (!ID.test(id!)) throw new Error(`${where}: "id" must be lowercase words joined by "-".`);
    if (seen.has(id!)) throw new Error(`${where}: the id "${id}" is used twice.`);
    seen.add(id!);
    if (!GALLERY_CATEGORIES.includes(category as GalleryCategory)) {
      throw new Error(`${where}: "category" must be one of ${GALLERY_CATEGORIES.join(', ')}.`);
    }
    const provider = embedProvider(embedUrl!);
    if (!provider) {
      throw new Error(
        `${where}: "embedUrl" must be /embed/${id} or an https embed URL from TikTok, YouTube, Instagram or X.`,
      );
    }
    if (provider === 'local') {
      if (embedUrl !== `/embed/${id}` || videoUrl !== `/samples/${id}.mp4`) {
        throw new Error(`${where}: a local entry uses /embed/${id} and /samples/${id}.mp4.`);
      }
      if (typeof prompt !== 'string' || prompt.trim() === '') {
        throw new Error(`${where}: a local entry needs the "prompt" its clip is rendered from.`);
      }
    }
    return entry as GalleryEntry;
  });
}

/** The entries a filter selects, in content order. */
export function entriesInFilter<T extends Pick<GalleryEntry, 'category'>>(
  entries: readonly T[],
  filter: GalleryFilter,
): T[] {
  return filter === 'All' ? [...entries] : entries.filter((e) => e.category === filter);
}

/** The entries on screen for a filter and a visible count. */
export function visibleEntries<T extends Pick<GalleryEntry, 'category'>>(
  entries: readonly T[],
  filter: GalleryFilter,
  count: number,
): T[] {
  return entriesInFilter(entries, filter).slice(0, Math.max(0, count));
}

/** Whether 'More Videos' still has something to add. */
export function hasMore(
  entries: readonly Pick<GalleryEntry, 'category'>[],
  filter: GalleryFilter,
  count: number,
): boolean {
  return entriesInFilter(entries, filter).length > count;
}

/** The message under the grid: the empty-category text, or a count for screen readers. */
export function galleryStatus(
  shown: number,
  total: number,
  filter: GalleryFilter,
  locale: Locale = 'en',
): string {
  if (total === 0) return m.gallery_empty(locale);
  if (filter === 'All') return m.gallery_status_all(locale, { shown, total });
  return m.gallery_status_category(locale, {
    shown,
    total,
    category: categoryLabel(filter, locale),
  });
}

const CATEGORY_LABELS: Record<GalleryFilter, (locale: Locale) => string> = {
  All: m.gallery_category_all,
  Animation: m.gallery_category_animation,
  Product: m.gallery_category_product,
  Movie: m.gallery_category_movie,
  'Talk Show': m.gallery_category_talk_show,
  Other: m.gallery_category_other,
};

/** A filter's or category's name in a language (the data keeps the English name). */
export function categoryLabel(filter: GalleryFilter, locale: Locale = 'en'): string {
  return CATEGORY_LABELS[filter](locale);
}

/** Parses a filter name from a button, falling back to All for anything unknown. */
export function toFilter(value: string | undefined | null): GalleryFilter {
  return GALLERY_FILTERS.includes(value as GalleryFilter) ? (value as GalleryFilter) : 'All';
}
